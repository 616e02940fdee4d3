import { Module } from '@nestjs/common';
import { AuthModule } from '@rosetta/auth';
import { CacheModule } from '@rosetta/cache';
import { BudgetModule, JointAdmissionService, LimitsModule, RateLimitModule } from '@rosetta/limits';
import { ProvidersModule } from '@rosetta/providers';
import { RegistryModule } from '@rosetta/registry';
import { AdmissionService } from './admission.service';
import { InflightLedgerService } from './inflight/inflight-ledger.service';
import { ChatService } from './chat.service';
import { EmbeddingService } from './embedding.service';
import { ExecutorService } from './executor.service';
import { EXTERNAL_CHECK_RUNNER_PROVIDER, ExternalChecksRunnerService } from './guardrails-external/external-checks-runner.service';
import { GuardrailService } from './guardrails/guardrail.service';
import { MixtureService } from './mixture.service';
import { ResponseCachingService } from './response-caching.service';
import { RoutingService } from './routing.service';
import { SessionAffinityService } from './session-affinity.service';

@Module({
  imports: [ProvidersModule, RegistryModule, RateLimitModule, BudgetModule, LimitsModule, CacheModule, AuthModule],
  providers: [SessionAffinityService, MixtureService, RoutingService, ExecutorService, JointAdmissionService, InflightLedgerService, AdmissionService, ResponseCachingService, ExternalChecksRunnerService, EXTERNAL_CHECK_RUNNER_PROVIDER, GuardrailService, ChatService, EmbeddingService],
  exports: [ChatService, EmbeddingService, RoutingService, MixtureService, GuardrailService, ExternalChecksRunnerService],
})
export class RoutingModule {}
