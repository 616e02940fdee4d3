import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { RegistryModule } from '@rosetta/registry';
import { RoutingModule } from '@rosetta/routing';
import { AnthropicMessagesController } from './anthropic-messages/anthropic-messages.controller';
import { DialectExceptionFilter } from './common/dialect-exception.filter';
import { GeminiController } from './gemini/gemini.controller';
import { OpenAIChatController } from './openai-chat/openai-chat.controller';
import { RouteController } from './route/route.controller';

@Module({
  imports: [RoutingModule, RegistryModule],
  controllers: [OpenAIChatController, AnthropicMessagesController, GeminiController, RouteController],
  providers: [{ provide: APP_FILTER, useClass: DialectExceptionFilter }],
})
export class DialectsModule {}
