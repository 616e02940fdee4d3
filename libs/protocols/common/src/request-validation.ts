import { GatewayError } from '@rosetta/canonical';
import { isRecord, type JsonObject } from './wire-guards';

/**
 * Hand-written request checks for the chat bodies (the hot path): the first problem becomes a 400
 * in the caller's dialect naming the field by its full path (`messages[2].role`). Only documented
 * fields are checked; everything else passes through untouched. Every optional check accepts
 * `null` and `undefined`.
 */
export const isStringOrStringArray = (v: unknown, max = Infinity): boolean =>
  typeof v === 'string' || (Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string'));

export function invalid(path: string, detail: string): never {
  throw GatewayError.invalidRequest(`Invalid '${path}': ${detail}`, path);
}

export function requireObjectBody(body: unknown, what = 'request body'): JsonObject {
  if (!isRecord(body)) throw GatewayError.invalidRequest(`The ${what} must be a JSON object`);
  return body;
}

/** `prefix.key`, or `key` at the top level. */
export const at = (prefix: string, key: string): string => (prefix ? `${prefix}.${key}` : key);

/** The member, which must be present and not null. */
export function required(object: JsonObject, key: string, prefix = ''): unknown {
  const value = object[key];
  if (value === undefined || value === null) {
    const path = at(prefix, key);
    throw GatewayError.invalidRequest(`Missing required field '${path}'`, path);
  }
  return value;
}

const absent = (v: unknown): v is null | undefined => v === undefined || v === null;

export function checkString(value: unknown, path: string): void {
  if (!absent(value) && typeof value !== 'string') invalid(path, 'must be a string');
}

export function checkBoolean(value: unknown, path: string): void {
  if (!absent(value) && typeof value !== 'boolean') invalid(path, 'must be a boolean');
}

export function checkObject(value: unknown, path: string): void {
  if (!absent(value) && !isRecord(value)) invalid(path, 'must be an object');
}

/** A finite number within [min, max] (either bound optional); integers only when `integer`. */
export function checkNumber(value: unknown, path: string, min?: number, max?: number, integer = false): void {
  if (absent(value)) return;
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(path, integer ? 'must be an integer' : 'must be a number');
  if (integer && !Number.isInteger(value)) invalid(path, 'must be an integer');
  if (min !== undefined && value < min) invalid(path, `must not be less than ${min}`);
  if (max !== undefined && value > max) invalid(path, `must not be greater than ${max}`);
}

export function checkInteger(value: unknown, path: string, min?: number, max?: number): void {
  checkNumber(value, path, min, max, true);
}

export function checkOneOf(value: unknown, path: string, allowed: readonly string[], detail?: string): void {
  if (absent(value)) return;
  if (typeof value !== 'string' || !allowed.includes(value)) invalid(path, detail ?? `must be one of ${allowed.join(', ')}`);
}

export function checkStringArray(value: unknown, path: string): void {
  if (absent(value)) return;
  if (!Array.isArray(value)) invalid(path, 'must be an array of strings');
  const bad = value.findIndex((s) => typeof s !== 'string');
  if (bad >= 0) invalid(`${path}[${bad}]`, 'must be a string');
}

/** An array (of at least `min` items), each item checked by `item` with its own path. */
export function checkArray(value: unknown, path: string, item?: (value: unknown, path: string) => void, min = 0): void {
  if (absent(value)) return;
  if (!Array.isArray(value)) invalid(path, 'must be an array');
  if (value.length < min) invalid(path, `must contain at least ${min} item${min === 1 ? '' : 's'}`);
  if (item) for (let i = 0; i < value.length; i++) item(value[i], `${path}[${i}]`);
}

/** A nested object whose members `members` checks; absent is fine unless the caller required it. */
export function checkNested(value: unknown, path: string, members: (object: JsonObject, path: string) => void): void {
  if (absent(value)) return;
  if (!isRecord(value)) invalid(path, 'must be an object');
  members(value, path);
}

const STRING_LISTS = ['models', 'provider_ignore', 'provider_only', 'provider_order', 'provider_quantizations'];
const PRICE_CAPS = ['provider_max_completion_price', 'provider_max_image_price', 'provider_max_prompt_price', 'provider_max_request_price'];

/** The interface's common routing fields, shared by every dialect's request. */
export function checkRoutingFields(body: JsonObject): void {
  for (const key of STRING_LISTS) checkStringArray(body[key], key);
  checkObject(body['provider_configs'], 'provider_configs');
  checkOneOf(body['provider_data_collection'], 'provider_data_collection', ['allow', 'deny']);
  checkBoolean(body['provider_enforce_distillable_text'], 'provider_enforce_distillable_text');
  for (const key of PRICE_CAPS) checkNumber(body[key], key, 0);
  checkBoolean(body['provider_require_parameters'], 'provider_require_parameters');
  checkOneOf(body['provider_sort'], 'provider_sort', ['price', 'throughput', 'latency']);
  checkBoolean(body['provider_zdr'], 'provider_zdr');
  // rosetta/auto's knob: 0 = cost-saving … 1 = quality-first.
  checkNumber(body['route_knob'], 'route_knob', 0, 1);
}
