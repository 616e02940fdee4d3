import type { RoutingPreferences } from '@rosetta/canonical';
import { upstreamProtocol } from '@rosetta/protocols/upstreams';
import type { RegistryEndpoint, RegistryModel, ResolvedProvider } from '@rosetta/registry';
import { PROTOCOL_PARAMETERS, type RequestFeatures } from './request-features';

export interface Candidate {
  model: RegistryModel;
  endpoint: RegistryEndpoint;
  provider: ResolvedProvider;
  /** `<provider>/<upstream model>`: the key of health stats and circuit breakers. */
  key: string;
}

export interface FilterContext {
  prefs: RoutingPreferences;
  features: RequestFeatures;
  /** An embeddings request: the vector size it asks for, and whether it sends token ids. */
  embedding?: { dimensions?: number; tokenInputs: boolean };
  hasAdapter(protocol: string): boolean;
  isAvailable(key: string): boolean;
}

/** A filter: the field or reason it stands for, and whether a candidate survives it. */
export interface EndpointFilter {
  name: string;
  /** 503 (nothing can serve right now) rather than 400 (the request excludes everything). */
  unavailable?: boolean;
  /** `candidates`: what reached this filter, to say precisely what excluded them. */
  describe(ctx: FilterContext, candidates: Candidate[]): string;
  keep(candidate: Candidate, ctx: FilterContext): boolean;
}

const perMillion = (price: string | undefined): number => Number(price ?? 0) * 1_000_000;

function cap(name: string, field: keyof NonNullable<RoutingPreferences['maxPrice']>, price: (c: Candidate) => string | undefined): EndpointFilter {
  return {
    name,
    describe: (ctx) => `${name} (${ctx.prefs.maxPrice?.[field]} USD per million)`,
    keep: (c, ctx) => ctx.prefs.maxPrice?.[field] === undefined || perMillion(price(c)) <= ctx.prefs.maxPrice[field]!,
  };
}

/** In order: the first filter that empties a model's candidates names the error. */
export const ENDPOINT_FILTERS: readonly EndpointFilter[] = [
  {
    name: 'configured',
    unavailable: true,
    describe: (_ctx, candidates) => `no provider that serves it is configured and enabled: ${[...new Set(candidates.map(toServe))].join('; ')}`,
    keep: (c, ctx) =>
      (c.provider.configured || (c.provider.baseUrl !== null && Boolean(ctx.prefs.providerConfigs?.[c.provider.slug]?.api_key)) ||
        Boolean(ctx.prefs.providerConfigs?.[c.provider.slug]?.api_key && ctx.prefs.providerConfigs[c.provider.slug]?.base_url)) &&
      !c.provider.disabled && !c.endpoint.disabled && ctx.hasAdapter(c.provider.protocol),
  },
  { name: 'provider_only', describe: (ctx) => `provider_only (${ctx.prefs.only?.join(', ')})`, keep: (c, ctx) => !ctx.prefs.only || ctx.prefs.only.includes(c.provider.slug) },
  { name: 'provider_ignore', describe: (ctx) => `provider_ignore (${ctx.prefs.ignore?.join(', ')})`, keep: (c, ctx) => !ctx.prefs.ignore?.includes(c.provider.slug) },
  {
    name: 'provider_quantizations',
    describe: (ctx) => `provider_quantizations (${ctx.prefs.quantizations?.join(', ')})`,
    keep: (c, ctx) => !ctx.prefs.quantizations || ctx.prefs.quantizations.includes(c.endpoint.quantization),
  },
  { name: 'provider_zdr', describe: () => 'provider_zdr (zero data retention only)', keep: (c, ctx) => !ctx.prefs.zdr || c.provider.zdr },
  {
    name: 'provider_data_collection',
    describe: () => "provider_data_collection 'deny'",
    keep: (c, ctx) => ctx.prefs.dataCollection !== 'deny' || c.provider.dataCollection === 'deny',
  },
  {
    name: 'provider_enforce_distillable_text',
    describe: () => 'provider_enforce_distillable_text (models whose licence allows distillation)',
    keep: (c, ctx) => !ctx.prefs.enforceDistillableText || c.model.distillable,
  },
  {
    name: 'provider_require_parameters',
    describe: (ctx, candidates) =>
      `provider_require_parameters (unsupported: ${ctx.features.parameters.filter((p) => !candidates.some((c) => supports(c, p))).join(', ') || 'no single endpoint supports them all'})`,
    keep: (c, ctx) => !ctx.prefs.requireParameters || ctx.features.parameters.every((p) => supports(c, p)),
  },
  cap('provider_max_prompt_price', 'prompt', (c) => c.endpoint.pricing.prompt),
  cap('provider_max_completion_price', 'completion', (c) => c.endpoint.pricing.completion),
  cap('provider_max_image_price', 'image', (c) => c.endpoint.pricing.image),
  cap('provider_max_request_price', 'request', (c) => c.endpoint.pricing.request),
  { name: 'tools', describe: () => 'tool support (the request has tools)', keep: (c, ctx) => !ctx.features.tools || c.endpoint.supportsTools },
  { name: 'images', describe: () => 'image input support', keep: (c, ctx) => !ctx.features.images || c.endpoint.supportsVision },
  // docs/decisions/0003: an output cap larger than an endpoint allows is clamped to fit (with a
  // warning) rather than refused, so agents with large defaults work on smaller models; strict
  // callers (provider_require_parameters) get the refusal instead.
  {
    name: 'context_length',
    describe: (ctx) => `context length (about ${ctx.features.promptTokens} prompt tokens${ctx.prefs.requireParameters ? ` + ${ctx.features.maxOutputTokens ?? 0} output tokens` : ''})`,
    keep: (c, ctx) =>
      ctx.prefs.requireParameters
        ? ctx.features.promptTokens + (ctx.features.maxOutputTokens ?? 0) <= c.endpoint.contextLength
        : ctx.features.promptTokens < c.endpoint.contextLength,
  },
  {
    name: 'max_completion_tokens',
    describe: (ctx) => `max_completion_tokens (${ctx.features.maxOutputTokens} requested)`,
    keep: (c, ctx) => !ctx.prefs.requireParameters || ctx.features.maxOutputTokens === undefined || ctx.features.maxOutputTokens <= c.endpoint.maxCompletionTokens,
  },
  { name: 'health', unavailable: true, describe: () => 'health (every endpoint is down or its circuit is open)', keep: (c, ctx) => ctx.isAvailable(c.key) },
];

/**
 * What an embeddings request needs beyond any request: an upstream that takes token ids when it
 * sends them (Gemini takes text only), and one that gives the vector size it asks for — its own
 * size, or a smaller one where the upstream can shorten (`custom_dimensions`).
 */
export const EMBEDDING_FILTERS: readonly EndpointFilter[] = [
  ...ENDPOINT_FILTERS.filter((f) => f.name !== 'health' && f.name !== 'context_length' && f.name !== 'max_completion_tokens'),
  {
    name: 'input_length',
    describe: (ctx, candidates) => `the input limit (its largest input is about ${ctx.features.promptTokens} tokens; the limit is ${Math.max(...candidates.map((c) => c.endpoint.contextLength))})`,
    keep: (c, ctx) => ctx.features.promptTokens <= c.endpoint.contextLength,
  },
  {
    name: 'input_tokens',
    describe: () => 'token-id input (its providers take text only)',
    keep: (c, ctx) => !ctx.embedding?.tokenInputs || upstreamProtocol(c.provider.protocol)?.embeddings?.tokenInputs === true,
  },
  {
    name: 'dimensions',
    describe: (ctx, candidates) => {
      const sizes = [...new Set(candidates.map((c) => c.endpoint.dimensions).filter((d) => d !== null))];
      return `dimensions / outputDimensionality (${ctx.embedding?.dimensions} requested; ${sizes.length ? `it gives ${sizes.join(' or ')}` : 'its size is unknown'}${candidates.some((c) => c.endpoint.customDimensions) ? ', or fewer' : ' and takes no other'})`;
    },
    keep: (c, ctx) => {
      const wanted = ctx.embedding?.dimensions;
      if (wanted === undefined || wanted === c.endpoint.dimensions) return true;
      return c.endpoint.customDimensions && (c.endpoint.dimensions === null || wanted <= c.endpoint.dimensions);
    },
  },
  ...ENDPOINT_FILTERS.filter((f) => f.name === 'health'),
];

function supports(c: Candidate, parameter: string): boolean {
  if (parameter === 'tools' || parameter === 'tool_choice') return c.endpoint.supportsTools;
  if (parameter === 'reasoning') return c.endpoint.supportsReasoning;
  return PROTOCOL_PARAMETERS[c.provider.protocol]?.includes(parameter) ?? false;
}

/** Applies the filters in order; reports the one that removed the last candidate, if any did. */
export function applyFilters(candidates: Candidate[], ctx: FilterContext, filters: readonly EndpointFilter[] = ENDPOINT_FILTERS): { kept: Candidate[]; emptiedBy?: EndpointFilter; before?: Candidate[] } {
  let kept = candidates;
  for (const filter of filters) {
    const next = kept.filter((c) => filter.keep(c, ctx));
    if (next.length === 0 && kept.length > 0) return { kept: [], emptiedBy: filter, before: kept };
    kept = next;
  }
  return { kept };
}

/** What an operator does to make one candidate callable (a configuration error names it). */
function toServe(c: Candidate): string {
  const provider = `provider '${c.provider.slug}'`;
  if (c.provider.toConfigure) return `${c.provider.toConfigure} (${provider})`;
  if (c.provider.disabled) return `enable ${provider} (PATCH /admin/providers/${c.provider.slug})`;
  if (c.endpoint.disabled) return `enable its endpoint on ${provider}`;
  return `${provider} speaks '${c.provider.protocol}', which this gateway has no adapter for`;
}
