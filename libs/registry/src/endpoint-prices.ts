/**
 * Prices as people type them — USD per million tokens, as every provider's price page quotes them —
 * turned into the registry's unit, USD per token as decimal strings (the interface's model record
 * keeps that unit for the API). A price outside any real provider's range is refused, naming the
 * field, so a per-token habit in a per-million field (or the reverse) cannot bill a thousand-fold
 * (docs/decisions/0022).
 */
import { GatewayError } from '@rosetta/canonical';
import type { EndpointPricing } from './registry-records';

/** What an endpoint entry may say about its prices (the DTO's fields). */
export interface EndpointPriceFields {
  usd_per_million_tokens?: { prompt: number | string; completion: number | string; input_cache_read?: number | string; input_cache_write?: number | string };
  usd_per_image?: number | string;
  usd_per_request?: number | string;
  /** USD per token, as the catalog and older files write it. */
  pricing?: EndpointPricing;
}

/** Above this many USD per million tokens no model is priced (o1-pro's output, the dearest, is 600). */
export const MAX_USD_PER_MILLION_TOKENS = 1_000;
/** Below this (but above 0) no API is priced: such a number is a per-token price in the wrong field. */
export const MIN_USD_PER_MILLION_TOKENS = 0.001;
/** Above this per image or per request no API is priced. */
export const MAX_USD_PER_UNIT = 10;

const DECIMAL = /^\d+(\.\d+)?$/;
const TOKEN_FIELDS = ['prompt', 'completion', 'input_cache_read', 'input_cache_write'] as const;

/** The registry's per-token pricing of an endpoint entry; `at` is the entry's path for messages. */
export function endpointPricing(entry: EndpointPriceFields, at: string): EndpointPricing {
  const human = entry.usd_per_million_tokens;
  if (human && entry.pricing) {
    throw GatewayError.invalidRequest(`${at}: give prices once — usd_per_million_tokens (USD per million tokens) or pricing (USD per token), not both`, `${at}.pricing`);
  }
  if (!human && !entry.pricing) {
    throw GatewayError.invalidRequest(`${at}.usd_per_million_tokens is required: the prices in USD per million tokens, e.g. {"prompt": 0.15, "completion": 0.6} (0 for a model you run yourself)`, `${at}.usd_per_million_tokens`);
  }
  const pricing: EndpointPricing = human ? fromPerMillion(human, `${at}.usd_per_million_tokens`) : checkedPerToken(entry.pricing!, `${at}.pricing`);
  for (const [field, key] of [['usd_per_image', 'image'], ['usd_per_request', 'request']] as const) {
    const value = entry[field];
    if (value === undefined) continue;
    const text = decimalText(value, `${at}.${field}`);
    if (Number(text) > MAX_USD_PER_UNIT) {
      throw GatewayError.invalidRequest(`${at}.${field}: ${text} USD is above any provider's price (at most ${MAX_USD_PER_UNIT} per ${key})`, `${at}.${field}`);
    }
    pricing[key] = text;
  }
  return pricing;
}

function fromPerMillion(prices: NonNullable<EndpointPriceFields['usd_per_million_tokens']>, at: string): EndpointPricing {
  const out: Partial<Record<(typeof TOKEN_FIELDS)[number], string>> = {};
  for (const field of TOKEN_FIELDS) {
    const value = prices[field];
    if (value === undefined) continue;
    const text = decimalText(value, `${at}.${field}`);
    checkRange(Number(text), `${at}.${field}`, `${text} USD per million tokens`, '');
    out[field] = shiftDecimal(text, 6);
  }
  return { prompt: out.prompt ?? '0', completion: out.completion ?? '0', ...omitUndefined({ input_cache_read: out.input_cache_read, input_cache_write: out.input_cache_write }) };
}

/** Per-token prices (the catalog, older files, API clients) pass the same range, in their unit. */
function checkedPerToken(pricing: EndpointPricing, at: string): EndpointPricing {
  for (const field of TOKEN_FIELDS) {
    const text = pricing[field];
    if (text === undefined) continue;
    const perMillion = Number(text) * 1e6;
    const hint = ` (pricing is USD per token; for ${text} USD per million tokens write usd_per_million_tokens: {"${field}": ${text}})`;
    checkRange(perMillion, `${at}.${field}`, `"${text}" USD per token is ${formatUsd(perMillion)} USD per million tokens`, hint);
  }
  return { ...pricing };
}

function checkRange(perMillion: number, param: string, what: string, hint: string): void {
  if (perMillion > MAX_USD_PER_MILLION_TOKENS) {
    throw GatewayError.invalidRequest(`${param}: ${what}, above any provider's price (at most ${MAX_USD_PER_MILLION_TOKENS})${hint}`, param);
  }
  if (perMillion > 0 && perMillion < MIN_USD_PER_MILLION_TOKENS) {
    throw GatewayError.invalidRequest(`${param}: ${what}, below any provider's price (at least ${MIN_USD_PER_MILLION_TOKENS}, or 0 for free)${hint || ' — was a per-token price written here?'}`, param);
  }
}

/** A non-negative number or decimal string, as a plain decimal string. */
function decimalText(value: number | string, param: string): string {
  const text = typeof value === 'number' ? (Number.isFinite(value) && value >= 0 ? plainDecimal(value) : '') : value.trim();
  if (!DECIMAL.test(text)) throw GatewayError.invalidRequest(`${param} must be a price: a number of USD, such as 0.15`, param);
  return text;
}

/** A number as a plain decimal (no exponent), to the precision JavaScript prints it with. */
function plainDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/** `text` ÷ 10^places, exactly, as a plain decimal string: "0.15" → "0.00000015". */
export function shiftDecimal(text: string, places: number): string {
  const [whole = '0', fraction = ''] = text.split('.');
  const digits = `${whole}${fraction}`.replace(/^0+/, '') || '0';
  const decimals = fraction.length + places;
  const padded = digits.padStart(decimals + 1, '0');
  const point = padded.length - decimals;
  return `${padded.slice(0, point)}.${padded.slice(point)}`.replace(/0+$/, '').replace(/\.$/, '');
}

/** USD per million tokens from the registry's per-token string, for people (admin API answers). */
export function perMillionTokens(perToken: string): string {
  const [mantissa = '0', exponent] = perToken.toLowerCase().split('e');
  if (exponent !== undefined || !DECIMAL.test(mantissa)) return formatUsd(Number(perToken) * 1e6);
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const moved = `${whole}${fraction.padEnd(6, '0')}`;
  const point = whole.length + 6;
  return `${moved.slice(0, point).replace(/^0+(?=\d)/, '')}.${moved.slice(point)}`.replace(/0+$/, '').replace(/\.$/, '');
}

function formatUsd(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

function omitUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
