/** The interface's `provider_*` routing fields, `models` and `provider_configs`, parsed. */
export interface EndpointOverride {
  base_url?: string;
  /** Milliseconds. */
  timeout?: number;
}

export interface ProviderConfigOverride {
  api_key?: string | null;
  base_url?: string | null;
  endpoint_overrides?: Record<string, EndpointOverride>;
}

export type ProviderSort = 'price' | 'throughput' | 'latency';

export interface RoutingPreferences {
  models?: string[];
  providerConfigs?: Record<string, ProviderConfigOverride>;
  dataCollection?: 'allow' | 'deny';
  enforceDistillableText?: boolean;
  ignore?: string[];
  only?: string[];
  order?: string[];
  quantizations?: string[];
  requireParameters?: boolean;
  sort?: ProviderSort;
  zdr?: boolean;
  allowFallbacks?: boolean;
  /** rosetta/auto's cost/quality knob: 0 = cost-saving … 1 = quality-first (`route_knob`). */
  routeKnob?: number;
  /** USD per million tokens (prompt, completion, image) or per request. */
  maxPrice?: { prompt?: number; completion?: number; image?: number; request?: number };
}

/** The wire names of the routing fields, removed before a body is forwarded upstream. */
export const ROUTING_FIELD_NAMES: readonly string[] = [
  'models',
  'provider_configs',
  'provider_data_collection',
  'provider_enforce_distillable_text',
  'provider_ignore',
  'provider_max_completion_price',
  'provider_max_image_price',
  'provider_max_prompt_price',
  'provider_max_request_price',
  'provider_only',
  'provider_order',
  'provider_quantizations',
  'provider_require_parameters',
  'provider_sort',
  'provider_zdr',
  'provider_allow_fallbacks',
  'provider',
  'route_knob',
];
