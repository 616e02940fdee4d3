import { isRecord } from './http-io';

/** Deep schemas are cut off here so a self-referencing schema cannot recurse forever. */
const MAX_DEPTH = 8;

/**
 * Builds deterministic tool arguments that satisfy a JSON Schema's basic shape: strings become
 * "example", numbers 1, booleans true, arrays [], objects recurse over their `required`
 * properties (all properties when `required` is absent).
 */
export function synthesiseArguments(schema: unknown): Record<string, unknown> {
  const value = synthesiseValue(schema, 0);
  return isRecord(value) ? value : {};
}

function synthesiseValue(schema: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > MAX_DEPTH) return {};
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  const branch = firstBranch(schema);
  if (branch !== undefined) return synthesiseValue(branch, depth + 1);
  switch (schemaType(schema)) {
    case 'string':
      return 'example';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'null':
      return null;
    default:
      return synthesiseObject(schema, depth);
  }
}

function firstBranch(schema: Record<string, unknown>): unknown {
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) return branches[0];
  }
  return undefined;
}

/**
 * `type` may be a list such as ["string", "null"]; the first non-null entry wins. Gemini's
 * OpenAPI-subset schemas spell types in capitals ("OBJECT"), so case is ignored.
 */
function schemaType(schema: Record<string, unknown>): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type.toLowerCase();
  if (Array.isArray(type)) {
    const named = type.filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.toLowerCase());
    return named.find((entry) => entry !== 'null') ?? named[0];
  }
  return undefined;
}

function synthesiseObject(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = schema['required'];
  const names = Array.isArray(required)
    ? required.filter((name): name is string => typeof name === 'string')
    : Object.keys(properties);
  const result: Record<string, unknown> = {};
  for (const name of names) result[name] = synthesiseValue(properties[name] ?? { type: 'string' }, depth + 1);
  return result;
}
