import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { HttpTransport } from './http-transport';
import { OpenAIChatAdapter } from './openai/openai-chat.adapter';
import { PROVIDER_ADAPTERS, type ProviderAdapter } from './provider-adapter';

@Module({
  providers: [
    HttpTransport,
    OpenAIChatAdapter,
    {
      provide: PROVIDER_ADAPTERS,
      useFactory: (openai: OpenAIChatAdapter): ReadonlyMap<string, ProviderAdapter> => new Map([[openai.protocol, openai]]),
      inject: [OpenAIChatAdapter],
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
