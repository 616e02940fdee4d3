import type { RegistryModel } from './registry.service';

/** Parameters every catalog endpoint accepts through the canonical model. */
const SUPPORTED_PARAMETERS = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'seed',
];

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

/** The interface's model record (`GET /v1/models/{id}`). Live health arrives with the full registry. */
export function toModelRecord(model: RegistryModel): Record<string, unknown> {
  const endpoints = model.endpoints;
  const top = endpoints[0];
  const contextLength = Math.max(0, ...endpoints.map((e) => e.contextLength));
  return {
    id: model.numericId,
    model_name: model.id,
    display_name: model.displayName,
    author: model.author,
    description: model.description,
    context_length: contextLength,
    created_at: model.createdAt,
    last_updated: model.createdAt,
    architecture: {
      instruct_type: 'chat',
      modality: 'text+image->text',
      tokenizer: model.author,
      modalities: [
        { modality_type: 'input', modality_value: 'text' },
        { modality_type: 'input', modality_value: 'image' },
        { modality_type: 'output', modality_value: 'text' },
      ],
    },
    default_parameters: { parameters: { temperature: 1, top_p: 1, max_tokens: top?.maxCompletionTokens ?? null } },
    pricing: {
      prompt_cost: top?.pricing.prompt ?? '0',
      completion_cost: top?.pricing.completion ?? '0',
      image_cost: top?.pricing.image ?? '0',
      request_cost: top?.pricing.request ?? '0',
      internal_reasoning_cost: top?.pricing.completion ?? '0',
      web_search_cost: '0',
    },
    providers: endpoints.map((e) => ({
      name: e.provider,
      provider_name: e.provider,
      provider_model_name: e.upstreamModel,
      quantization: 'unknown',
      tag: `${e.provider}/${e.upstreamModel}`,
      is_zdr: 'false',
      supports_implicit_caching: String(e.provider !== 'gemini'),
      uptime_last_30m: '100',
      context_length: e.contextLength,
      max_completion_tokens: e.maxCompletionTokens,
      max_prompt_tokens: e.contextLength,
      status: 0,
      pricing: { prompt_cost: e.pricing.prompt, completion_cost: e.pricing.completion, request_cost: e.pricing.request ?? '0', image_cost: e.pricing.image ?? '0', discount: '0' },
    })),
    supported_parameters: SUPPORTED_PARAMETERS.map((parameter_name) => ({ parameter_name })),
    top_provider: { context_length: top?.contextLength ?? contextLength, is_moderated: 'false', max_completion_tokens: top?.maxCompletionTokens ?? null },
  };
}
