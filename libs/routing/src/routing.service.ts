import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type CanonicalRequest, type EmbeddingRequest } from '@rosetta/canonical';
import { estimatePromptTokens } from '@rosetta/limits';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter } from '@rosetta/providers';
import type { Candidate as RouterCandidate, DeclaredPrior, RouteDecision } from '@rosetta/mixture';
import { ENDPOINT_HEALTH, RegistryService, type EndpointHealthPort, type RegistryModel } from '@rosetta/registry';
import type { Attempt, RoutePlan } from './attempt';
import { applyFilters, EMBEDDING_FILTERS, type Candidate, type EndpointFilter, type FilterContext } from './endpoint-filters';
import { orderCandidates } from './endpoint-ordering';
import { applyAffinity, MixtureService, summariseDecision } from './mixture.service';
import type { Stickiness } from './session-affinity.service';
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
    private readonly mixture: MixtureService,
  ) {}

  /** Whether a model id is rosetta/auto (the only model session affinity applies to). */
  isAuto(model: string): boolean {
    return model === this.registry.autoModelId;
  }

  /** Validates every model id of the request (400/404 per §4.1) before any work is done. */
  resolveModels(request: Pick<CanonicalRequest, 'model' | 'routing'>): { primary: RegistryModel; fallbacks: RegistryModel[] } {
    const primary = this.registry.resolve(request.model, 'model');
    const fallbacks = (request.routing.models ?? []).map((id, i) => this.registry.resolve(id, `models[${i}]`));
    return { primary, fallbacks };
  }

  plan(request: CanonicalRequest, promptTokens = estimatePromptTokens(request), options: PlanOptions = {}): RoutePlan {
    return this.build(request, promptTokens, options).plan;
  }

  /** The plan with its workings: what each filter kept, for POST /v1/route. */
  explain(request: CanonicalRequest, options: PlanOptions = {}): Record<string, unknown> {
    const promptTokens = estimatePromptTokens(request);
    const { plan, perModel } = this.build(request, promptTokens, options);
    return {
      model: request.model,
      chosen: plan.attempts[0]?.model,
      route: plan.route ?? null,
      decision: plan.decision ?? null,
      affinity: plan.affinity ?? null,
      prompt_tokens: promptTokens,
      filters: perModel.map((m) => ({ model: m.model.id, eligible: m.kept.map((c) => c.provider.slug), excluded_by: m.emptiedBy?.name ?? null })),
      attempts: plan.attempts.map((a) => ({ model: a.model, provider: a.target.provider, upstream_model: a.target.upstreamModel })),
    };
  }

  /**
   * An embeddings request's attempts: the model's endpoints, then each `models` entry's, filtered
   * like a chat request's (provider preferences, prices, health, the input limit against its
   * largest input) and by what embeddings need (token-id input, the vector size), then ordered.
   * Only embedding models: rosetta/auto and chat models are a 400 naming the field.
   */
  planEmbedding(request: EmbeddingRequest, need: { largestInputTokens: number }, options: PlanOptions = {}): RoutePlan {
    const { primary, fallbacks } = permitted(this.kindChecked(this.resolveModels(request), 'embedding'), options.allowed);
    const ctx: FilterContext = {
      prefs: request.routing,
      features: { promptTokens: need.largestInputTokens, tools: false, images: false, reasoning: false, parameters: [] },
      embedding: { dimensions: request.dimensions, tokenInputs: request.inputs.some((i) => i.type === 'tokens') },
      hasAdapter: (protocol) => this.adapters.has(protocol),
      isAvailable: (key) => this.health.available(key),
    };
    const pool = [primary, ...fallbacks.filter((m) => m.id !== primary.id)];
    const perModel = pool.map((model) => ({ model, ...applyFilters(this.candidates(model), ctx, EMBEDDING_FILTERS) }));
    const usable = perModel.filter((m) => m.kept.length > 0);
    if (usable.length === 0) throw this.emptyError(request.model, perModel[0]?.emptiedBy, ctx, perModel[0]?.before ?? []);
    const attempts = usable.flatMap(({ kept }) => orderCandidates(kept, request.routing, (key) => this.health.view(key)).map((c) => this.attempt(c, ctx)));
    if (attempts.length === 0) {
      throw new GatewayError('overloaded_error', `No available provider for '${request.model}': none of the providers in provider_order is available and allow_fallbacks is false`, { status: 503 });
    }
    return { attempts };
  }

  /**
   * Chat requests reach only chat models and embeddings requests only embedding models; the wrong
   * kind is the caller's mistake, a 400 naming the field. rosetta/auto is a chat model.
   */
  private kindChecked<T extends { primary: RegistryModel; fallbacks: RegistryModel[] }>(models: T, kind: RegistryModel['kind']): T {
    const check = (model: RegistryModel, param: string): void => {
      if (model.kind === kind && !(kind === 'embedding' && model.isAuto)) return;
      if (kind === 'chat') {
        throw GatewayError.invalidRequest(`'${model.id}' is an embedding model: call it through POST /v1/embeddings (or :embedContent), not a chat route`, param);
      }
      const some = this.registry.list().filter((m) => m.kind === 'embedding' && this.registry.callable(m)).slice(0, 5).map((m) => m.id);
      throw GatewayError.invalidRequest(`'${model.id}' is not an embedding model${model.isAuto ? ' (rosetta/auto routes chat requests)' : ''}: name one${some.length ? ` such as ${some.join(', ')}` : ''}`, param);
    };
    check(models.primary, 'model');
    models.fallbacks.forEach((m, i) => check(m, `models[${i}]`));
    return models;
  }

  private build(request: CanonicalRequest, promptTokens: number, options: PlanOptions) {
    const { primary, fallbacks } = permitted(this.kindChecked(this.resolveModels(request), 'chat'), options.allowed);
    const ctx: FilterContext = {
      prefs: request.routing,
      features: requestFeatures(request, promptTokens),
      hasAdapter: (protocol) => this.adapters.has(protocol),
      isAvailable: (key) => this.health.available(key),
    };
    const pool = primary.isAuto ? this.autoPool(fallbacks, options.allowed) : [primary, ...fallbacks.filter((m) => !m.isAuto && m.id !== primary.id)];
    const filtered = pool.map((model) => ({ model, ...applyFilters(this.candidates(model), ctx) }));
    // rosetta/auto routes only to models it can score: fitted data, a catalog profile or a declared prior.
    const perModel = primary.isAuto ? filtered.map((m) => (m.kept.length > 0 && !this.mixture.routable(this.candidate(m)) ? { model: m.model, kept: [], emptiedBy: NO_ROUTER_BASIS, before: m.kept } : m)) : filtered;
    const usable = perModel.filter((m) => m.kept.length > 0);
    if (usable.length === 0) {
      const first = primary.isAuto ? (perModel.find((m) => m.emptiedBy === NO_ROUTER_BASIS) ?? perModel[0]) : perModel[0];
      throw this.emptyError(request.model, first?.emptiedBy, ctx, first?.before ?? []);
    }
    const decided = primary.isAuto ? this.mixture.decide(request, usable.map((m) => this.candidate(m)), request.routing.routeKnob ?? options.knob ?? undefined) : undefined;
    const sticky = decided && options.sticky ? applyAffinity(decided, options.sticky) : undefined;
    const decision = sticky?.decision ?? decided;
    const chain = decision ? this.byDecision(usable, decision) : usable;
    const attempts = chain.flatMap(({ kept }) => orderCandidates(kept, request.routing, (key) => this.health.view(key)).map((c) => this.attempt(c, ctx)));
    if (attempts.length === 0) {
      throw new GatewayError('overloaded_error', `No available provider for '${request.model}': none of the providers in provider_order is available and allow_fallbacks is false`, { status: 503 });
    }
    const route = decision ? summariseDecision(decision) + (sticky ? `; affinity=${sticky.affinity}` : '') : undefined;
    return { plan: { attempts, route, decision, affinity: sticky?.affinity }, perModel };
  }

  /** The router's candidate: a model with the prices of its cheapest eligible endpoint, and its declared prior. */
  private candidate(m: { model: RegistryModel; kept: Candidate[] }): RouterCandidate {
    const cheapest = [...m.kept].sort((a, b) => price(a) - price(b))[0]!;
    const prior = m.model.routerPrior ? declaredPrior(m.model.routerPrior) : undefined;
    return { id: m.model.id, promptPrice: Number(cheapest.endpoint.pricing.prompt), completionPrice: Number(cheapest.endpoint.pricing.completion), ...(prior ? { prior } : {}) };
  }

  /** The decision's plan first, then the other eligible models by score, as fallbacks. */
  private byDecision<T extends { model: RegistryModel }>(usable: T[], decision: RouteDecision): T[] {
    const first = decision.mode === 'cascade' ? [decision.chosen] : decision.plan;
    const score = new Map(decision.candidates.map((c) => [c.id, c.score]));
    const rank = (m: T): number => {
      const i = first.indexOf(m.model.id);
      return i >= 0 ? i - first.length : -(score.get(m.model.id) ?? -Infinity);
    };
    return [...usable].sort((a, b) => rank(a) - rank(b) || a.model.id.localeCompare(b.model.id));
  }

  private autoPool(fallbacks: RegistryModel[], allowed: readonly string[] | null | undefined): RegistryModel[] {
    const explicit = fallbacks.filter((m) => !m.isAuto);
    const pool = explicit.length > 0 ? explicit : this.registry.list().filter((m) => !m.isAuto && m.kind === 'chat' && (!allowed || allowed.includes(m.id)));
    if (pool.length === 0) throw new GatewayError('permission_error', `This key may use only ${allowed?.join(', ')}, and none of them can be routed to`, { param: 'model' });
    return pool;
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
        ...(c.provider.platform ? { platform: c.provider.platform } : {}),
        upstreamModel: c.endpoint.upstreamModel,
        maxCompletionTokens: c.endpoint.maxCompletionTokens,
        reasoning: c.endpoint.supportsReasoning,
        outputTokenCap: requested !== undefined && requested > room ? Math.max(1, room) : undefined,
        timeouts: this.config.timeouts,
        ...(c.model.kind === 'embedding' ? { dimensions: c.endpoint.dimensions ?? undefined, customDimensions: c.endpoint.customDimensions } : {}),
      },
      pricing: c.endpoint.pricing,
    };
  }

  private emptyError(model: string, filter: EndpointFilter | undefined, ctx: FilterContext, before: Candidate[]): GatewayError {
    if (filter?.name === 'configured') {
      // Configuration, not load: retrying cannot help, so SDKs are told not to (x-should-retry).
      return new GatewayError('configuration_error', `'${model}' is not served by this gateway: ${filter.describe(ctx, before)}`, { headers: { 'x-should-retry': 'false' } });
    }
    if (!filter || filter.unavailable) {
      return new GatewayError('overloaded_error', `No available provider for '${model}': ${filter ? filter.describe(ctx, before) : 'it has no endpoints'}`, { status: 503 });
    }
    return new GatewayError('invalid_request_error', `No endpoint of '${model}' satisfies ${filter.describe(ctx, before)}`, { param: paramOf(filter.name) });
  }
}

/** Where a declared prior came from, as the decision explains it. */
const PRIOR_SOURCES = { catalog: 'catalog', file: 'providers file', admin: 'admin API' } as const;

const declaredPriors = new WeakMap<NonNullable<RegistryModel['routerPrior']>, DeclaredPrior>();

/** The router's form of a registry prior, one object per registry snapshot (the router memoises by it). */
function declaredPrior(prior: NonNullable<RegistryModel['routerPrior']>): DeclaredPrior {
  let declared = declaredPriors.get(prior);
  if (!declared) declaredPriors.set(prior, (declared = { quality: prior.quality, source: PRIOR_SOURCES[prior.source] }));
  return declared;
}

/** rosetta/auto's own exclusion, shown in POST /v1/route's `filters` like the endpoint filters. */
const NO_ROUTER_BASIS: EndpointFilter = {
  name: 'router_prior',
  unavailable: true,
  describe: () => 'no fitted data, catalog profile or declared router_prior, so rosetta/auto cannot score it (declare router_prior in the providers file or through PUT /admin/models/{name})',
  keep: () => false,
};

export interface PlanOptions {
  /** The key's default rosetta/auto knob. */
  knob?: number | null;
  /** The key's model allow-list (public ids); null or absent: every model. */
  allowed?: readonly string[] | null;
  /** rosetta/auto: the conversation's session and the model it stuck to. */
  sticky?: Stickiness;
}

/** A key's allow-list (ARCHITECTURE §8): another model is 403, naming it; rosetta/auto stays inside it. */
function permitted<T extends { primary: RegistryModel; fallbacks: RegistryModel[] }>(models: T, allowed: readonly string[] | null | undefined): T {
  if (!allowed) return models;
  const refuse = (model: RegistryModel, param: string): GatewayError =>
    new GatewayError('permission_error', `This key may not use model '${model.id}'; it may use: ${allowed.join(', ') || 'no model'}`, { param });
  if (!models.primary.isAuto && !allowed.includes(models.primary.id)) throw refuse(models.primary, 'model');
  models.fallbacks.forEach((m, i) => {
    if (!m.isAuto && !allowed.includes(m.id)) throw refuse(m, `models[${i}]`);
  });
  return models;
}

function price(c: Candidate): number {
  return Number(c.endpoint.pricing.prompt) + Number(c.endpoint.pricing.completion);
}

function paramOf(filter: string): string | undefined {
  if (filter.startsWith('provider_') || filter === 'tools' || filter === 'dimensions') return filter;
  if (filter === 'input_length' || filter === 'input_tokens') return 'input';
  return filter === 'max_completion_tokens' ? 'max_tokens' : undefined;
}
