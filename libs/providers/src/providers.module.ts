import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { UPSTREAM_PROTOCOLS } from '@rosetta/protocols/upstreams';
import { HttpTransport } from './http-transport';
import { ProtocolAdapter } from './protocol-adapter';
import { PROVIDER_ADAPTERS, type ProviderAdapter } from './provider-adapter';

/** One adapter per upstream protocol (UPSTREAM_PROTOCOLS), by protocol id, over one transport. */
@Module({
  providers: [
    HttpTransport,
    {
      provide: PROVIDER_ADAPTERS,
      useFactory: (transport: HttpTransport): ReadonlyMap<string, ProviderAdapter> => new Map(UPSTREAM_PROTOCOLS.map((p) => [p.id, new ProtocolAdapter(p, transport)])),
      inject: [HttpTransport],
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
