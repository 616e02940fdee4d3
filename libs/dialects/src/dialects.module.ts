import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { RoutingModule } from '@rosetta/routing';
import { DialectExceptionFilter } from './common/dialect-exception.filter';
import { OpenAIChatController } from './openai-chat/openai-chat.controller';

@Module({
  imports: [RoutingModule],
  controllers: [OpenAIChatController],
  providers: [{ provide: APP_FILTER, useClass: DialectExceptionFilter }],
})
export class DialectsModule {}
