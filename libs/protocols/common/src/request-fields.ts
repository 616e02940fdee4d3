/**
 * Readers for client request fields, used by each dialect's decoder to check and convert a body in
 * one pass. A client body with a field of the wrong type, out of range or missing is the caller's
 * mistake, so each reader throws a 400 naming the exact path to fix (`messages[2].content[0].type`)
 * in one style for every field of every dialect:
 *
 *   Missing required field 'messages'
 *   Invalid 'temperature': must not be greater than 2
 *
 * JSON `null` counts as absent: the OpenAI API accepts null for every optional parameter. Paths are
 * built only when a check fails, so a valid body pays for no string it does not need.
 */
import { GatewayError } from '@rosetta/canonical';
import { isRecord, type JsonObject } from './wire-guards';

export function fieldPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** `Invalid '<path>': <detail>` — the one shape of a bad field's message. */
export function invalidField(path: string, detail: string): GatewayError {
  return GatewayError.invalidRequest(`Invalid '${path}': ${detail}`, path);
}

export function missingField(path: string): GatewayError {
  return GatewayError.invalidRequest(`Missing required field '${path}'`, path);
}

/** A value the gateway recognises as valid in the dialect but cannot translate, or does not know. */
export function unsupported(what: string, path: string): GatewayError {
  return invalidField(path, `unsupported ${what}`);
}

export const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;

/** Bounds of a number field; `integer` refuses fractions. */
export interface NumberRange {
  min?: number;
  max?: number;
  integer?: boolean;
}

/** What is wrong with `value` as a number in `range`, or undefined. */
export function numberProblem(value: unknown, range: NumberRange = {}): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return range.integer ? 'must be an integer' : 'must be a number';
  if (range.integer && !Number.isInteger(value)) return 'must be an integer';
  if (range.min !== undefined && value < range.min) return `must not be less than ${range.min}`;
  if (range.max !== undefined && value > range.max) return `must not be greater than ${range.max}`;
  return undefined;
}

/** The object at `path`, which must be present. */
export function requireRecord(value: unknown, path: string): JsonObject {
  if (isRecord(value)) return value;
  throw isAbsent(value) ? missingField(path) : invalidField(path, 'must be an object');
}

/** The array at `path`, which must be present (and hold at least `min` items). */
export function requireList(value: unknown, path: string, min = 0): unknown[] {
  if (!Array.isArray(value)) throw isAbsent(value) ? missingField(path) : invalidField(path, 'must be an array');
  if (value.length < min) throw invalidField(path, `must contain at least ${min} item${min === 1 ? '' : 's'}`);
  return value;
}

/** The member `key`, which must be present and not null. */
export function requireMember(obj: JsonObject, key: string, parent = ''): unknown {
  const value = obj[key];
  if (isAbsent(value)) throw missingField(fieldPath(parent, key));
  return value;
}

export function requireString(obj: JsonObject, key: string, parent = ''): string {
  const value = obj[key];
  if (typeof value === 'string') return value;
  throw isAbsent(value) ? missingField(fieldPath(parent, key)) : invalidField(fieldPath(parent, key), 'must be a string');
}

export function optionalString(obj: JsonObject, key: string, parent = ''): string | undefined {
  const value = obj[key];
  if (typeof value === 'string' || isAbsent(value)) return value ?? undefined;
  throw invalidField(fieldPath(parent, key), 'must be a string');
}

export function optionalNumber(obj: JsonObject, key: string, parent = '', range?: NumberRange): number | undefined {
  const value = obj[key];
  if (isAbsent(value)) return undefined;
  const problem = numberProblem(value, range);
  if (problem) throw invalidField(fieldPath(parent, key), problem);
  return value as number;
}

export function requireNumber(obj: JsonObject, key: string, parent = '', range?: NumberRange): number {
  const value = optionalNumber(obj, key, parent, range);
  if (value === undefined) throw missingField(fieldPath(parent, key));
  return value;
}

export function optionalBoolean(obj: JsonObject, key: string, parent = ''): boolean | undefined {
  const value = obj[key];
  if (typeof value === 'boolean' || isAbsent(value)) return value ?? undefined;
  throw invalidField(fieldPath(parent, key), 'must be a boolean');
}

/** An array of strings; a bad item is named by its own path (`provider_only[1]`). */
export function optionalStringArray(obj: JsonObject, key: string, parent = ''): string[] | undefined {
  const value = obj[key];
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value)) throw invalidField(fieldPath(parent, key), 'must be an array of strings');
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') throw invalidField(`${fieldPath(parent, key)}[${i}]`, 'must be a string');
  }
  return value as string[];
}

export function optionalRecord(obj: JsonObject, key: string, parent = ''): JsonObject | undefined {
  const value = obj[key];
  if (isRecord(value) || isAbsent(value)) return value ?? undefined;
  throw invalidField(fieldPath(parent, key), 'must be an object');
}

/** One of a fixed set of string values, e.g. `provider_sort`; `detail` replaces the list in the message. */
export function optionalEnum<T extends string>(obj: JsonObject, key: string, allowed: readonly T[], parent = '', detail?: string): T | undefined {
  const value = obj[key];
  if (isAbsent(value)) return undefined;
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) throw invalidField(fieldPath(parent, key), detail ?? `must be one of ${allowed.join(', ')}`);
  return match;
}

export function requireEnum<T extends string>(obj: JsonObject, key: string, allowed: readonly T[], parent = '', detail?: string): T {
  const value = optionalEnum(obj, key, allowed, parent, detail);
  if (value === undefined) throw missingField(fieldPath(parent, key));
  return value;
}
