import { Inject, Injectable } from '@nestjs/common';
import type { ProtocolId } from '@rosetta/canonical';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';

export interface ProviderEntry {
  slug: string;
  protocol: ProtocolId;
  baseUrl: string;
  apiKey?: string;
}

/** The operator's upstreams: the built-in three from the environment (more come with the registry). */
@Injectable()
export class ProviderDirectory {
  private readonly providers: Map<string, ProviderEntry>;

  constructor(@Inject(ROSETTA_CONFIG) config: RosettaConfig) {
    this.providers = new Map(
      config.providers.map((p) => [p.slug, { slug: p.slug, protocol: p.slug, baseUrl: p.baseUrl, apiKey: p.apiKey }]),
    );
  }

  get(slug: string): ProviderEntry | undefined {
    return this.providers.get(slug);
  }

  /** Providers that have credentials and so can be called. */
  configured(): ProviderEntry[] {
    return [...this.providers.values()].filter((p) => p.apiKey);
  }
}
