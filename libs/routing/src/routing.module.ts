import { Module } from '@nestjs/common';
import { RateLimitModule } from '@rosetta/limits';
import { ProvidersModule } from '@rosetta/providers';
import { RegistryModule } from '@rosetta/registry';
import { ChatService } from './chat.service';
import { ExecutorService } from './executor.service';
import { MixtureService } from './mixture.service';
import { RoutingService } from './routing.service';

@Module({
  imports: [ProvidersModule, RegistryModule, RateLimitModule],
  providers: [MixtureService, RoutingService, ExecutorService, ChatService],
  exports: [ChatService, RoutingService, MixtureService],
})
export class RoutingModule {}
