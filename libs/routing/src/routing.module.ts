import { Module } from '@nestjs/common';
import { ProvidersModule } from '@rosetta/providers';
import { ENDPOINT_HEALTH, NO_HEALTH, RegistryModule } from '@rosetta/registry';
import { ChatService } from './chat.service';
import { ExecutorService } from './executor.service';
import { RoutingService } from './routing.service';

@Module({
  imports: [ProvidersModule, RegistryModule],
  providers: [{ provide: ENDPOINT_HEALTH, useValue: NO_HEALTH }, RoutingService, ExecutorService, ChatService],
  exports: [ChatService, RoutingService],
})
export class RoutingModule {}
