/**
 * Dialect-C bodies are proto3 JSON, whose parsers accept both `lowerCamelCase` and the original
 * `snake_case` name of every field at every level; clients send either (Google's own examples
 * mix them). This rewrites every field name to camelCase so converters read one spelling.
 *
 * Free-form values are copied untouched: they are user data, not proto fields (function
 * arguments and results, JSON Schemas, labels, extra body, HTTP headers). A Schema is a proto
 * message, except that the keys of its `properties` map are user-chosen property names, and its
 * `default`/`example` are arbitrary values. The gateway's routing fields are not proto fields
 * either and keep their own (snake_case) names.
 */
import { GatewayError, ROUTING_FIELD_NAMES } from '@rosetta/canonical';
import { isRecord, type JsonObject } from '@rosetta/protocols/common';

/** What a value is, which decides how its keys are treated. */
type Scope =
  /** A proto message; `field` is the (camelCase) field it is the value of. */
  | { kind: 'proto'; field: string }
  /** An OpenAPI-subset Schema (function parameters, responseSchema). */
  | { kind: 'schema' }
  /** A Schema's `properties`: user keys, Schema values. */
  | { kind: 'schema-map' }
  /** User data: copied as is. */
  | { kind: 'verbatim' };

/** Free-form wherever they occur. */
const VERBATIM_FIELDS = new Set(['parametersJsonSchema', 'responseJsonSchema', 'extraBody', 'labels']);
/** Free-form only inside the named message. */
const VERBATIM_IN: Record<string, string> = { args: 'functionCall', response: 'functionResponse', headers: 'httpOptions' };
const ROUTING_FIELDS = new Set(ROUTING_FIELD_NAMES);

/** The gateway's own fields, including `provider_*` ones newer than this list. */
function isRoutingField(key: string): boolean {
  return ROUTING_FIELDS.has(key) || key.startsWith('provider_');
}

export function normalizeGeminiRequest(body: Record<string, unknown>): Record<string, unknown> {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    if (isRoutingField(key)) {
      setOwn(out, key, value);
      continue;
    }
    const field = toCamelCase(key);
    assign(out, field, key, normalizeValue(value, childScope({ kind: 'proto', field: '' }, field), field), '');
  }
  return out;
}

/** `max_output_tokens` → `maxOutputTokens`; only underscores between letters or digits count. */
export function toCamelCase(key: string): string {
  return key.replace(/(?<=[a-z0-9])_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function normalizeValue(value: unknown, scope: Scope, path: string): unknown {
  if (scope.kind === 'verbatim') return value;
  if (Array.isArray(value)) return value.map((item, i) => normalizeValue(item, scope, `${path}[${i}]`));
  if (!isRecord(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (scope.kind === 'schema-map') {
      setOwn(out, key, normalizeValue(child, { kind: 'schema' }, `${path}.${key}`));
      continue;
    }
    const field = toCamelCase(key);
    const childPath = `${path}.${field}`;
    assign(out, field, key, normalizeValue(child, childScope(scope, field), childPath), path);
  }
  return out;
}

function childScope(parent: Exclude<Scope, { kind: 'verbatim' | 'schema-map' }>, field: string): Scope {
  if (parent.kind === 'schema') return schemaChildScope(field);
  if (VERBATIM_FIELDS.has(field) || VERBATIM_IN[field] === parent.field) return { kind: 'verbatim' };
  if (field === 'parameters' || field === 'responseSchema') return { kind: 'schema' };
  // FunctionDeclaration.response is a Schema (FunctionResponse.response, user data, is above).
  if (field === 'response' && parent.field === 'functionDeclarations') return { kind: 'schema' };
  return { kind: 'proto', field };
}

function schemaChildScope(field: string): Scope {
  switch (field) {
    case 'properties':
      return { kind: 'schema-map' };
    case 'items':
    case 'anyOf':
      return { kind: 'schema' };
    case 'default':
    case 'example':
      return { kind: 'verbatim' };
    default:
      return { kind: 'proto', field };
  }
}

/** Both spellings of one field in one object is ambiguous; proto3 parsers refuse it too. */
function assign(out: JsonObject, field: string, original: string, value: unknown, parent: string): void {
  if (Object.prototype.hasOwnProperty.call(out, field)) {
    const path = parent === '' ? field : `${parent}.${field}`;
    throw GatewayError.invalidRequest(`Field '${path}' is given twice (also as '${original}').`, path);
  }
  setOwn(out, field, value);
}

/** A plain assignment of `__proto__` would set the prototype instead of copying the key. */
function setOwn(out: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}
