import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type CanonicalRequest } from '@rosetta/canonical';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter } from '@rosetta/providers';
import { RegistryService, type RegistryModel } from '@rosetta/registry';
import type { Attempt, RoutePlan } from './attempt';
import { ProviderDirectory } from './provider-directory.service';

/**
 * Turns a request into an ordered list of attempts: the requested model's endpoints, then each
 * `models` entry's (the fallback chain). `rosetta/auto` picks among the pool; the full Mixture of
 * Models replaces the simple cheapest-first choice made here.
 */
@Injectable()
export class RoutingService {
  constructor(
    private readonly registry: RegistryService,
    private readonly providers: ProviderDirectory,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: ReadonlyMap<string, ProviderAdapter>,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
  ) {}

  /** Validates every model id of the request (400/404 per §4.1) before any work is done. */
  resolveModels(request: CanonicalRequest): { primary: RegistryModel; fallbacks: RegistryModel[] } {
    const primary = this.registry.resolve(request.model, 'model');
    const fallbacks = (request.routing.models ?? []).map((id, i) => this.registry.resolve(id, `models[${i}]`));
    return { primary, fallbacks };
  }

  plan(request: CanonicalRequest): RoutePlan {
    const { primary, fallbacks } = this.resolveModels(request);
    let chain: RegistryModel[];
    let route: string | undefined;
    if (primary.isAuto) {
      const pool = fallbacks.length > 0 ? fallbacks.filter((m) => !m.isAuto) : this.registry.list().filter((m) => !m.isAuto);
      chain = this.byPrice(pool.filter((m) => this.servable(m)));
      route = chain[0] ? `cheapest-servable;pool=${pool.length}` : undefined;
    } else {
      chain = [primary, ...fallbacks.filter((m) => !m.isAuto && m.id !== primary.id)];
    }
    const attempts = chain.flatMap((m) => this.attemptsFor(m));
    if (attempts.length === 0) {
      throw new GatewayError('overloaded_error', `No available provider for '${request.model}': no configured upstream serves it`, {
        status: 503,
      });
    }
    return { attempts, route };
  }

  private servable(model: RegistryModel): boolean {
    return this.attemptsFor(model).length > 0;
  }

  private attemptsFor(model: RegistryModel): Attempt[] {
    return model.endpoints.flatMap((endpoint) => {
      const provider = this.providers.get(endpoint.provider);
      if (!provider?.apiKey || !this.adapters.has(provider.protocol)) return [];
      return [
        {
          model: model.id,
          target: {
            provider: provider.slug,
            protocol: provider.protocol,
            baseUrl: provider.baseUrl,
            apiKey: provider.apiKey,
            upstreamModel: endpoint.upstreamModel,
            maxCompletionTokens: endpoint.maxCompletionTokens,
            timeouts: this.config.timeouts,
          },
        },
      ];
    });
  }

  private byPrice(models: RegistryModel[]): RegistryModel[] {
    const price = (m: RegistryModel): number =>
      Math.min(...m.endpoints.map((e) => Number(e.pricing.prompt) + Number(e.pricing.completion)));
    return [...models].sort((a, b) => price(a) - price(b) || a.id.localeCompare(b.id));
  }
}
