import { Module } from '@nestjs/common';
import { ProvidersModule } from '@rosetta/providers';
import { RegistryModule } from '@rosetta/registry';
import { ChatService } from './chat.service';
import { ExecutorService } from './executor.service';
import { ProviderDirectory } from './provider-directory.service';
import { RoutingService } from './routing.service';

@Module({
  imports: [ProvidersModule, RegistryModule],
  providers: [ProviderDirectory, RoutingService, ExecutorService, ChatService],
  exports: [ChatService, RoutingService, ProviderDirectory],
})
export class RoutingModule {}
