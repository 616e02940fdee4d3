import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type CanonicalRequest } from '@rosetta/canonical';
import { estimatePromptTokens } from '@rosetta/limits';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter } from '@rosetta/providers';
import { ENDPOINT_HEALTH, RegistryService, type EndpointHealthPort, type RegistryModel } from '@rosetta/registry';
import type { Attempt, RoutePlan } from './attempt';
import { applyFilters, type Candidate, type EndpointFilter, type FilterContext } from './endpoint-filters';
import { orderCandidates } from './endpoint-ordering';
import { requestFeatures } from './request-features';

/**
 * Turns a request into an ordered list of attempts: the requested model's endpoints, then each
 * `models` entry's (the fallback chain), each filtered by the provider preferences, capabilities,
 * sizes and health, and ordered by provider_order / provider_sort or price-weighted balancing.
 * `rosetta/auto` asks the Mixture of Models which model to start with.
 */
@Injectable()
export class RoutingService {
  constructor(
    private readonly registry: RegistryService,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: ReadonlyMap<string, ProviderAdapter>,
    @Inject(ENDPOINT_HEALTH) private readonly health: EndpointHealthPort,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
  ) {}

  /** Validates every model id of the request (400/404 per §4.1) before any work is done. */
  resolveModels(request: CanonicalRequest): { primary: RegistryModel; fallbacks: RegistryModel[] } {
    const primary = this.registry.resolve(request.model, 'model');
    const fallbacks = (request.routing.models ?? []).map((id, i) => this.registry.resolve(id, `models[${i}]`));
    return { primary, fallbacks };
  }

  plan(request: CanonicalRequest, promptTokens = estimatePromptTokens(request)): RoutePlan {
    const { primary, fallbacks } = this.resolveModels(request);
    const ctx: FilterContext = {
      prefs: request.routing,
      features: requestFeatures(request, promptTokens),
      hasAdapter: (protocol) => this.adapters.has(protocol),
      isAvailable: (key) => this.health.available(key),
    };
    const pool = primary.isAuto ? this.autoPool(fallbacks) : [primary, ...fallbacks.filter((m) => !m.isAuto && m.id !== primary.id)];
    const perModel = pool.map((model) => ({ model, ...applyFilters(this.candidates(model), ctx) }));
    const usable = perModel.filter((m) => m.kept.length > 0);
    if (usable.length === 0) throw this.emptyError(request.model, perModel[0]?.emptiedBy, ctx, perModel[0]?.before ?? []);
    const chain = primary.isAuto ? this.cheapestFirst(usable) : usable;
    const attempts = chain.flatMap(({ kept }) => orderCandidates(kept, request.routing, (key) => this.health.view(key)).map((c) => this.attempt(c, ctx)));
    if (attempts.length === 0) {
      throw new GatewayError('overloaded_error', `No available provider for '${request.model}': none of the providers in provider_order is available and allow_fallbacks is false`, { status: 503 });
    }
    const route = primary.isAuto ? `cheapest-eligible;pool=${pool.length};chosen=${chain[0]!.model.id}` : undefined;
    return { attempts, route };
  }

  private autoPool(fallbacks: RegistryModel[]): RegistryModel[] {
    const explicit = fallbacks.filter((m) => !m.isAuto);
    return explicit.length > 0 ? explicit : this.registry.list().filter((m) => !m.isAuto);
  }

  private cheapestFirst<T extends { model: RegistryModel; kept: Candidate[] }>(models: T[]): T[] {
    const cost = (m: T): number => Math.min(...m.kept.map((c) => Number(c.endpoint.pricing.prompt) + Number(c.endpoint.pricing.completion)));
    return [...models].sort((a, b) => cost(a) - cost(b) || a.model.id.localeCompare(b.model.id));
  }

  private candidates(model: RegistryModel): Candidate[] {
    return model.endpoints.flatMap((endpoint) => {
      const provider = this.registry.provider(endpoint.provider);
      return provider ? [{ model, endpoint, provider, key: `${provider.slug}/${endpoint.upstreamModel}` }] : [];
    });
  }

  private attempt(c: Candidate, ctx: FilterContext): Attempt {
    const room = Math.min(c.endpoint.maxCompletionTokens, c.endpoint.contextLength - ctx.features.promptTokens);
    const requested = ctx.features.maxOutputTokens;
    return {
      model: c.model.id,
      key: c.key,
      target: {
        provider: c.provider.slug,
        protocol: c.provider.protocol,
        baseUrl: c.provider.baseUrl!,
        apiKey: c.provider.apiKey!,
        upstreamModel: c.endpoint.upstreamModel,
        maxCompletionTokens: c.endpoint.maxCompletionTokens,
        outputTokenCap: requested !== undefined && requested > room ? Math.max(1, room) : undefined,
        timeouts: this.config.timeouts,
      },
      pricing: c.endpoint.pricing,
    };
  }

  private emptyError(model: string, filter: EndpointFilter | undefined, ctx: FilterContext, before: Candidate[]): GatewayError {
    if (!filter || filter.unavailable) {
      return new GatewayError('overloaded_error', `No available provider for '${model}': ${filter ? filter.describe(ctx, before) : 'it has no endpoints'}`, { status: 503 });
    }
    return new GatewayError('invalid_request_error', `No endpoint of '${model}' satisfies ${filter.describe(ctx, before)}`, { param: paramOf(filter.name) });
  }
}

function paramOf(filter: string): string | undefined {
  return filter.startsWith('provider_') ? filter : filter === 'tools' ? 'tools' : filter === 'max_completion_tokens' ? 'max_tokens' : undefined;
}
