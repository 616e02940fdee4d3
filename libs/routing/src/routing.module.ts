import { Module } from '@nestjs/common';
import { BudgetModule, JointAdmissionService, RateLimitModule } from '@rosetta/limits';
import { ProvidersModule } from '@rosetta/providers';
import { RegistryModule } from '@rosetta/registry';
import { AdmissionService } from './admission.service';
import { ChatService } from './chat.service';
import { EmbeddingService } from './embedding.service';
import { ExecutorService } from './executor.service';
import { MixtureService } from './mixture.service';
import { RoutingService } from './routing.service';
import { SessionAffinityService } from './session-affinity.service';

@Module({
  imports: [ProvidersModule, RegistryModule, RateLimitModule, BudgetModule],
  providers: [SessionAffinityService, MixtureService, RoutingService, ExecutorService, JointAdmissionService, AdmissionService, ChatService, EmbeddingService],
  exports: [ChatService, EmbeddingService, RoutingService, MixtureService],
})
export class RoutingModule {}
