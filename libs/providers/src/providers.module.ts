import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { AnthropicMessagesAdapter } from './anthropic/anthropic-messages.adapter';
import { GeminiAdapter } from './gemini/gemini.adapter';
import { HttpTransport } from './http-transport';
import { OpenAIChatAdapter } from './openai/openai-chat.adapter';
import { PROVIDER_ADAPTERS, type ProviderAdapter } from './provider-adapter';

@Module({
  providers: [
    HttpTransport,
    OpenAIChatAdapter,
    AnthropicMessagesAdapter,
    GeminiAdapter,
    {
      provide: PROVIDER_ADAPTERS,
      useFactory: (...adapters: ProviderAdapter[]): ReadonlyMap<string, ProviderAdapter> => new Map(adapters.map((a) => [a.protocol, a])),
      inject: [OpenAIChatAdapter, AnthropicMessagesAdapter, GeminiAdapter],
    },
  ],
  exports: [PROVIDER_ADAPTERS, HttpTransport],
})
export class ProvidersModule implements OnApplicationShutdown {
  constructor(private readonly transport: HttpTransport) {}

  async onApplicationShutdown(): Promise<void> {
    await this.transport.close();
  }
}
