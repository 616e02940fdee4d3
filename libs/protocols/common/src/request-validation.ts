import { GatewayError } from '@rosetta/canonical';
import { convertRoutingFields } from './convert-routing-fields';
import { fieldPath, invalidField, isAbsent, numberProblem, requireMember } from './request-fields';
import { isRecord, type JsonObject } from './wire-guards';

/**
 * Checks for fields a decoder validates without converting (a documented field the canonical
 * request has no place for, but a same-protocol upstream receives as sent). Same messages as the
 * readers of request-fields.ts; every check accepts `null` and `undefined`.
 */
export const isStringOrStringArray = (v: unknown, max = Infinity): boolean =>
  typeof v === 'string' || (Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string'));

export function invalid(path: string, detail: string): never {
  throw invalidField(path, detail);
}

export function requireObjectBody(body: unknown, what = 'request body'): JsonObject {
  if (!isRecord(body)) throw GatewayError.invalidRequest(`The ${what} must be a JSON object`);
  return body;
}

/** `prefix.key`, or `key` at the top level. */
export const at = fieldPath;

/** The member, which must be present and not null. */
export function required(object: JsonObject, key: string, prefix = ''): unknown {
  return requireMember(object, key, prefix);
}

export function checkString(value: unknown, path: string): void {
  if (!isAbsent(value) && typeof value !== 'string') invalid(path, 'must be a string');
}

export function checkBoolean(value: unknown, path: string): void {
  if (!isAbsent(value) && typeof value !== 'boolean') invalid(path, 'must be a boolean');
}

export function checkObject(value: unknown, path: string): void {
  if (!isAbsent(value) && !isRecord(value)) invalid(path, 'must be an object');
}

/** A finite number within [min, max] (either bound optional); integers only when `integer`. */
export function checkNumber(value: unknown, path: string, min?: number, max?: number, integer = false): void {
  if (isAbsent(value)) return;
  const problem = numberProblem(value, { min, max, integer });
  if (problem) invalid(path, problem);
}

export function checkInteger(value: unknown, path: string, min?: number, max?: number): void {
  checkNumber(value, path, min, max, true);
}

export function checkOneOf(value: unknown, path: string, allowed: readonly string[], detail?: string): void {
  if (isAbsent(value)) return;
  if (typeof value !== 'string' || !allowed.includes(value)) invalid(path, detail ?? `must be one of ${allowed.join(', ')}`);
}

export function checkStringArray(value: unknown, path: string): void {
  if (isAbsent(value)) return;
  if (!Array.isArray(value)) invalid(path, 'must be an array of strings');
  const bad = value.findIndex((s) => typeof s !== 'string');
  if (bad >= 0) invalid(`${path}[${bad}]`, 'must be a string');
}

/** An array (of at least `min` items), each item checked by `item` with its own path. */
export function checkArray(value: unknown, path: string, item?: (value: unknown, path: string) => void, min = 0): void {
  if (isAbsent(value)) return;
  if (!Array.isArray(value)) invalid(path, 'must be an array');
  if (value.length < min) invalid(path, `must contain at least ${min} item${min === 1 ? '' : 's'}`);
  if (item) for (let i = 0; i < value.length; i++) item(value[i], `${path}[${i}]`);
}

/** A nested object whose members `members` checks; absent is fine unless the caller required it. */
export function checkNested(value: unknown, path: string, members: (object: JsonObject, path: string) => void): void {
  if (isAbsent(value)) return;
  if (!isRecord(value)) invalid(path, 'must be an object');
  members(value, path);
}

/** The interface's common routing fields, shared by every dialect's request (read, then dropped). */
export function checkRoutingFields(body: JsonObject): void {
  convertRoutingFields({ body });
}
