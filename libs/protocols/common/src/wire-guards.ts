/**
 * Narrowing helpers for JSON read off the wire. Decoders take `unknown` at the edge and use these
 * instead of casts, so a malformed body fails on a checked path rather than deep inside a mapper.
 */
export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}

/** The string at `key`, or undefined when absent or of another type (lenient: upstream data). */
export function stringField(obj: JsonObject, key: string): string | undefined {
  const value = obj[key];
  return isString(value) ? value : undefined;
}

/** The number at `key`, or undefined when absent or of another type (lenient: upstream data). */
export function numberField(obj: JsonObject, key: string): number | undefined {
  const value = obj[key];
  return isNumber(value) ? value : undefined;
}

/** The object at `key`, or undefined when absent or of another type (lenient: upstream data). */
export function recordField(obj: JsonObject, key: string): JsonObject | undefined {
  const value = obj[key];
  return isRecord(value) ? value : undefined;
}
