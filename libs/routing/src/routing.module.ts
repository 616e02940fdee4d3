import { Module } from '@nestjs/common';
import { CacheModule } from '@rosetta/cache';
import { BudgetModule, JointAdmissionService, LimitsModule, RateLimitModule } from '@rosetta/limits';
import { ProvidersModule } from '@rosetta/providers';
import { RegistryModule } from '@rosetta/registry';
import { AdmissionService } from './admission.service';
import { InflightLedgerService } from './inflight/inflight-ledger.service';
import { ChatService } from './chat.service';
import { EmbeddingService } from './embedding.service';
import { ExecutorService } from './executor.service';
import { ExternalChecksRunnerService } from './guardrails-external/external-checks-runner.service';
import { MixtureService } from './mixture.service';
import { ResponseCachingService } from './response-caching.service';
import { RoutingService } from './routing.service';
import { SessionAffinityService } from './session-affinity.service';

@Module({
  imports: [ProvidersModule, RegistryModule, RateLimitModule, BudgetModule, LimitsModule, CacheModule],
  providers: [SessionAffinityService, MixtureService, RoutingService, ExecutorService, JointAdmissionService, InflightLedgerService, AdmissionService, ResponseCachingService, ChatService, EmbeddingService, ExternalChecksRunnerService],
  exports: [ChatService, EmbeddingService, RoutingService, MixtureService, ExternalChecksRunnerService],
})
export class RoutingModule {}
