/**
 * Strict readers for client request fields. Unlike upstream data, a client body that carries a
 * field of the wrong type is the caller's mistake, so each reader throws an invalid-request error
 * naming the exact field path (`messages[2].content[0].type`) the caller has to fix.
 * JSON `null` counts as absent: the OpenAI API accepts null for every optional parameter.
 */
import { GatewayError } from '@rosetta/canonical';
import { isNumber, isRecord, isString, isStringArray, type JsonObject } from './wire-guards';

export function fieldPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

function invalid(path: string, expected: string): GatewayError {
  return GatewayError.invalidRequest(`Invalid type for '${path}': expected ${expected}.`, path);
}

/** A value the gateway recognises as valid OpenAI but cannot translate, or does not know. */
export function unsupported(what: string, path: string): GatewayError {
  return GatewayError.invalidRequest(`Unsupported ${what} at '${path}'.`, path);
}

export function requireRecord(value: unknown, path: string): JsonObject {
  if (!isRecord(value)) throw invalid(path, 'an object');
  return value;
}

export function requireString(obj: JsonObject, key: string, parent: string): string {
  const value = obj[key];
  if (!isString(value)) throw invalid(fieldPath(parent, key), 'a string');
  return value;
}

export function optionalString(obj: JsonObject, key: string, parent = ''): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!isString(value)) throw invalid(fieldPath(parent, key), 'a string');
  return value;
}

export function optionalNumber(obj: JsonObject, key: string, parent = ''): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!isNumber(value)) throw invalid(fieldPath(parent, key), 'a number');
  return value;
}

export function optionalBoolean(obj: JsonObject, key: string, parent = ''): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(fieldPath(parent, key), 'a boolean');
  return value;
}

export function optionalStringArray(obj: JsonObject, key: string, parent = ''): string[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!isStringArray(value)) throw invalid(fieldPath(parent, key), 'an array of strings');
  return value;
}

export function optionalRecord(obj: JsonObject, key: string, parent = ''): JsonObject | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  return requireRecord(value, fieldPath(parent, key));
}

/** One of a fixed set of string values, e.g. `provider_sort`. */
export function optionalEnum<T extends string>(
  obj: JsonObject,
  key: string,
  allowed: readonly T[],
  parent = '',
): T | undefined {
  const value = optionalString(obj, key, parent);
  if (value === undefined) return undefined;
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) {
    const path = fieldPath(parent, key);
    throw GatewayError.invalidRequest(`Invalid value for '${path}': expected one of ${allowed.join(', ')}.`, path);
  }
  return match;
}
