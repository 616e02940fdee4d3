import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from '@rosetta/auth';
import { BudgetModule, RateLimitModule } from '@rosetta/limits';
import { RegistryModule } from '@rosetta/registry';
import { RoutingModule } from '@rosetta/routing';
import { AnthropicMessagesController } from './anthropic-messages/anthropic-messages.controller';
import { ChatEndpoints } from './chat-endpoints.service';
import { DialectExceptionFilter } from './common/dialect-exception.filter';
import { GeminiController } from './gemini/gemini.controller';
import { ChatLane } from './lane/chat-lane.service';
import { OpenAIChatController } from './openai-chat/openai-chat.controller';
import { KeyController } from './key/key.controller';
import { RouteController } from './route/route.controller';

@Module({
  imports: [RoutingModule, RegistryModule, AuthModule, RateLimitModule, BudgetModule],
  controllers: [OpenAIChatController, AnthropicMessagesController, GeminiController, RouteController, KeyController],
  providers: [ChatEndpoints, ChatLane, { provide: APP_FILTER, useClass: DialectExceptionFilter }],
  exports: [ChatLane],
})
export class DialectsModule {}
