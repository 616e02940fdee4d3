/**
 * Routing preferences from any dialect body (the routing fields are common to all three), checked
 * and read in one pass. The gateway's own form is flattened (`provider_order`,
 * `provider_max_prompt_price`, …); OpenRouter clients send the same settings nested in a `provider`
 * object, so both are read. Where both name a setting the flattened field wins, being the
 * documented interface.
 */
import type {
  EndpointOverride,
  ProviderConfigOverride,
  ProviderSort,
  RoutingPreferences,
} from '@rosetta/canonical';
import { compact } from './compact';
import {
  fieldPath,
  optionalBoolean,
  optionalEnum,
  optionalNumber,
  optionalRecord,
  optionalString,
  optionalStringArray,
  requireRecord,
  type NumberRange,
} from './request-fields';
import { isRecord, type JsonObject } from './wire-guards';

type MaxPrice = NonNullable<RoutingPreferences['maxPrice']>;

const SORTS: readonly ProviderSort[] = ['price', 'throughput', 'latency'];
const DATA_COLLECTION: readonly ('allow' | 'deny')[] = ['allow', 'deny'];
const KNOB: NumberRange = { min: 0, max: 1 };
const PRICE: NumberRange = { min: 0 };

export function convertRoutingFields({ body }: { body: JsonObject }): RoutingPreferences {
  const nestedObject = optionalRecord(body, 'provider');
  const nested = nestedObject ? readProviderObject(nestedObject) : {};
  const flattened = readFlattened(body);
  const maxPrice = mergeMaxPrice(nested.maxPrice, flattened.maxPrice);
  return compact({ ...nested, ...flattened, maxPrice });
}

function readFlattened(body: JsonObject): RoutingPreferences {
  const providerConfigs = optionalRecord(body, 'provider_configs');
  return compact({
    models: optionalStringArray(body, 'models'),
    providerConfigs: providerConfigs ? readProviderConfigs(providerConfigs, 'provider_configs') : undefined,
    dataCollection: optionalEnum(body, 'provider_data_collection', DATA_COLLECTION),
    enforceDistillableText: optionalBoolean(body, 'provider_enforce_distillable_text'),
    ignore: optionalStringArray(body, 'provider_ignore'),
    only: optionalStringArray(body, 'provider_only'),
    order: optionalStringArray(body, 'provider_order'),
    quantizations: optionalStringArray(body, 'provider_quantizations'),
    requireParameters: optionalBoolean(body, 'provider_require_parameters'),
    sort: optionalEnum(body, 'provider_sort', SORTS),
    zdr: optionalBoolean(body, 'provider_zdr'),
    allowFallbacks: optionalBoolean(body, 'provider_allow_fallbacks'),
    // rosetta/auto's knob: 0 = cost-saving … 1 = quality-first.
    routeKnob: optionalNumber(body, 'route_knob', '', KNOB),
    maxPrice: emptyToUndefined(
      compact({
        prompt: optionalNumber(body, 'provider_max_prompt_price', '', PRICE),
        completion: optionalNumber(body, 'provider_max_completion_price', '', PRICE),
        image: optionalNumber(body, 'provider_max_image_price', '', PRICE),
        request: optionalNumber(body, 'provider_max_request_price', '', PRICE),
      }),
    ),
  });
}

/** OpenRouter's nested `provider` object. */
function readProviderObject(provider: JsonObject): RoutingPreferences {
  const parent = 'provider';
  const maxPrice = optionalRecord(provider, 'max_price', parent);
  return compact({
    order: optionalStringArray(provider, 'order', parent),
    only: optionalStringArray(provider, 'only', parent),
    ignore: optionalStringArray(provider, 'ignore', parent),
    sort: readNestedSort(provider),
    allowFallbacks: optionalBoolean(provider, 'allow_fallbacks', parent),
    requireParameters: optionalBoolean(provider, 'require_parameters', parent),
    dataCollection: optionalEnum(provider, 'data_collection', DATA_COLLECTION, parent),
    zdr: optionalBoolean(provider, 'zdr', parent),
    quantizations: optionalStringArray(provider, 'quantizations', parent),
    enforceDistillableText: optionalBoolean(provider, 'enforce_distillable_text', parent),
    maxPrice: maxPrice ? readMaxPrice(maxPrice, 'provider.max_price') : undefined,
  });
}

/** OpenRouter also accepts `sort: {by: 'price', …}`; only the measure matters here. */
function readNestedSort(provider: JsonObject): ProviderSort | undefined {
  const sort = provider['sort'];
  if (isRecord(sort)) {
    return optionalEnum(sort, 'by', SORTS, 'provider.sort');
  }
  return optionalEnum(provider, 'sort', SORTS, 'provider');
}

function readMaxPrice(value: JsonObject, parent: string): MaxPrice | undefined {
  return emptyToUndefined(
    compact({
      prompt: optionalNumber(value, 'prompt', parent),
      completion: optionalNumber(value, 'completion', parent),
      image: optionalNumber(value, 'image', parent),
      request: optionalNumber(value, 'request', parent),
    }),
  );
}

function mergeMaxPrice(nested?: MaxPrice, flattened?: MaxPrice): MaxPrice | undefined {
  if (!nested && !flattened) return undefined;
  return { ...nested, ...flattened };
}

function readProviderConfigs(value: JsonObject, path: string): Record<string, ProviderConfigOverride> {
  const configs: Record<string, ProviderConfigOverride> = {};
  for (const [slug, raw] of Object.entries(value)) {
    const parent = fieldPath(path, slug);
    const config = requireRecord(raw, parent);
    const overrides = optionalRecord(config, 'endpoint_overrides', parent);
    configs[slug] = compact({
      api_key: nullableString(config, 'api_key', parent),
      base_url: nullableString(config, 'base_url', parent),
      endpoint_overrides: overrides ? readEndpointOverrides(overrides, fieldPath(parent, 'endpoint_overrides')) : undefined,
    });
  }
  return configs;
}

function readEndpointOverrides(value: JsonObject, path: string): Record<string, EndpointOverride> {
  const overrides: Record<string, EndpointOverride> = {};
  for (const [model, raw] of Object.entries(value)) {
    const parent = fieldPath(path, model);
    const override = requireRecord(raw, parent);
    overrides[model] = compact({
      base_url: optionalString(override, 'base_url', parent),
      timeout: optionalNumber(override, 'timeout', parent),
    });
  }
  return overrides;
}

/** An explicit null is kept: the interface types these as nullable, distinct from absent. */
function nullableString(obj: JsonObject, key: string, parent: string): string | null | undefined {
  return obj[key] === null ? null : optionalString(obj, key, parent);
}

function emptyToUndefined<T extends object>(value: T): T | undefined {
  return Object.keys(value).length === 0 ? undefined : value;
}
