import type { EndpointStatsView } from './endpoint-health.port';
import type { RegistryModel, ResolvedProvider } from './registry.service';

type Lookup = { provider(slug: string): ResolvedProvider | undefined; health(key: string): EndpointStatsView };

function unixSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** The list item both SDKs parse: OpenAI reads id/object/created/owned_by, Anthropic type/display_name/created_at. */
export function toModelListItem(model: RegistryModel): Record<string, unknown> {
  return {
    id: model.id,
    object: 'model',
    created: unixSeconds(model.createdAt),
    owned_by: model.author,
    type: 'model',
    display_name: model.displayName,
    created_at: model.createdAt,
  };
}

export function toModelList(models: readonly RegistryModel[]): Record<string, unknown> {
  const data = models.map(toModelListItem);
  return { object: 'list', data, has_more: false, first_id: models[0]?.id ?? null, last_id: models.at(-1)?.id ?? null };
}

const BASE_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'response_format', 'seed'];

function supportedParameters(model: RegistryModel): string[] {
  if (model.kind === 'embedding') return ['encoding_format', 'user', ...(model.endpoints.some((e) => e.customDimensions) ? ['dimensions'] : [])];
  const params = new Set(BASE_PARAMETERS);
  if (model.endpoints.some((e) => e.supportsTools)) ['tools', 'tool_choice', 'parallel_tool_calls'].forEach((p) => params.add(p));
  if (model.endpoints.some((e) => e.supportsReasoning)) ['reasoning', 'include_reasoning'].forEach((p) => params.add(p));
  return [...params];
}

/**
 * The interface's model record (`GET /v1/models/{id}`), with each provider's live status
 * (0 operational, 1 degraded, 2 down, 3 disabled) and uptime over the last 30 minutes.
 */
export function toModelRecord(model: RegistryModel, lookup: Lookup): Record<string, unknown> {
  const endpoints = model.endpoints;
  const top = [...endpoints].sort((a, b) => b.contextLength - a.contextLength)[0];
  const vision = endpoints.some((e) => e.supportsVision);
  const embedding = model.kind === 'embedding';
  return {
    id: model.numericId,
    model_name: model.id,
    display_name: model.displayName,
    author: model.author,
    description: model.description,
    context_length: top?.contextLength ?? 0,
    created_at: model.createdAt,
    last_updated: model.updatedAt,
    kind: model.kind,
    architecture: {
      instruct_type: embedding ? null : 'chat',
      modality: embedding ? 'text->embeddings' : vision ? 'text+image->text' : 'text->text',
      tokenizer: model.author,
      modalities: [
        { modality_type: 'input', modality_value: 'text' },
        ...(vision ? [{ modality_type: 'input', modality_value: 'image' }] : []),
        { modality_type: 'output', modality_value: embedding ? 'embeddings' : 'text' },
      ],
    },
    default_parameters: { parameters: embedding ? { dimensions: top?.dimensions ?? null } : { temperature: 1, top_p: 1, max_tokens: top?.maxCompletionTokens ?? null } },
    pricing: {
      prompt_cost: top?.pricing.prompt ?? '0',
      completion_cost: top?.pricing.completion ?? '0',
      image_cost: top?.pricing.image ?? '0',
      request_cost: top?.pricing.request ?? '0',
      internal_reasoning_cost: top?.pricing.completion ?? '0',
      web_search_cost: '0',
    },
    providers: endpoints.map((e) => providerEntry(e, lookup, embedding)),
    supported_parameters: supportedParameters(model).map((parameter_name) => ({ parameter_name })),
    top_provider: { context_length: top?.contextLength ?? 0, is_moderated: 'false', max_completion_tokens: embedding ? null : (top?.maxCompletionTokens ?? null) },
  };
}

function providerEntry(e: RegistryModel['endpoints'][number], lookup: Lookup, embedding: boolean): Record<string, unknown> {
  const provider = lookup.provider(e.provider);
  const health = lookup.health(`${e.provider}/${e.upstreamModel}`);
  const disabled = e.disabled || provider?.disabled;
  return {
    name: e.provider,
    provider_name: e.provider,
    provider_model_name: e.upstreamModel,
    quantization: e.quantization,
    tag: `${e.provider}/${e.quantization}`,
    is_zdr: String(provider?.zdr ?? false),
    supports_implicit_caching: String(e.pricing.input_cache_read !== undefined && e.provider !== 'anthropic'),
    // A string, as the interface types it: with no calls in the window no failure was seen, which
    // is what status 0 says too, so the uptime is 100.
    uptime_last_30m: (health.uptime ?? 100).toFixed(2),
    context_length: e.contextLength,
    max_completion_tokens: embedding ? null : e.maxCompletionTokens,
    max_prompt_tokens: e.contextLength,
    ...(embedding ? { dimensions: e.dimensions, custom_dimensions: e.customDimensions } : {}),
    status: disabled ? 3 : !provider?.configured ? 2 : health.status,
    pricing: {
      prompt_cost: e.pricing.prompt,
      completion_cost: e.pricing.completion,
      image_cost: e.pricing.image ?? '0',
      request_cost: e.pricing.request ?? '0',
      input_cache_read_cost: e.pricing.input_cache_read ?? '0',
      input_cache_write_cost: e.pricing.input_cache_write ?? '0',
      image_output_cost: '0',
      audio_cost: '0',
      input_audio_cache_cost: '0',
      discount: '0',
    },
  };
}
