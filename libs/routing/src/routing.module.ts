import { Module, type Provider } from '@nestjs/common';
import { AuthModule } from '@rosetta/auth';
import { EXTERNAL_CHECK_RUNNER } from '@rosetta/guardrails';
import { CacheModule } from '@rosetta/cache';
import { BudgetModule, JointAdmissionService, LimitsModule, RateLimitModule } from '@rosetta/limits';
import { ProvidersModule } from '@rosetta/providers';
import { RegistryModule } from '@rosetta/registry';
import { AdmissionService } from './admission.service';
import { InflightLedgerService } from './inflight/inflight-ledger.service';
import { ChatService } from './chat.service';
import { EmbeddingService } from './embedding.service';
import { ExecutorService } from './executor.service';
import { GuardrailService } from './guardrails/guardrail.service';
import { UNAVAILABLE_EXTERNAL_CHECKS } from './guardrails/unavailable-external-checks';
import { MixtureService } from './mixture.service';
import { ResponseCachingService } from './response-caching.service';
import { RoutingService } from './routing.service';
import { SessionAffinityService } from './session-affinity.service';

/**
 * Webhook and model guardrail checks (the runner of libs/guardrails' seam). Until one is bound,
 * every external check is unavailable and its `fail` choice applies.
 */
const externalCheckRunner: Provider = { provide: EXTERNAL_CHECK_RUNNER, useValue: UNAVAILABLE_EXTERNAL_CHECKS };

@Module({
  imports: [ProvidersModule, RegistryModule, RateLimitModule, BudgetModule, LimitsModule, CacheModule, AuthModule],
  providers: [SessionAffinityService, MixtureService, RoutingService, ExecutorService, JointAdmissionService, InflightLedgerService, AdmissionService, ResponseCachingService, externalCheckRunner, GuardrailService, ChatService, EmbeddingService],
  exports: [ChatService, EmbeddingService, RoutingService, MixtureService, GuardrailService],
})
export class RoutingModule {}
