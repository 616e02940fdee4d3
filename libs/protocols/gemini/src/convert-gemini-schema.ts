/**
 * Gemini's `Schema` (an OpenAPI 3.0 subset: upper-case type names, `nullable`) → JSON Schema, the
 * form canonical tools and response formats carry. Keywords JSON Schema shares are kept; proto3
 * JSON writes int64 values (`minItems`, …) as strings, so those become numbers.
 */
import type { JsonSchema } from '@rosetta/canonical';
import { isRecord, isString, requireRecord, type JsonObject } from '@rosetta/protocols/common';

const COPIED = ['title', 'description', 'format', 'pattern', 'enum', 'required', 'default'] as const;
const NUMERIC = ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;

export function convertGeminiSchema(raw: unknown, path: string): JsonSchema {
  const schema = requireRecord(raw, path);
  const out: JsonObject = {};
  const type = schemaType(schema['type'], schema['nullable'] === true);
  if (type !== undefined) out['type'] = type;
  for (const key of COPIED) {
    if (present(schema[key])) out[key] = schema[key];
  }
  // OpenAPI's single `example` is JSON Schema's `examples` list.
  if (present(schema['example'])) out['examples'] = [schema['example']];
  for (const key of NUMERIC) {
    const value = toNumber(schema[key]);
    if (value !== undefined) out[key] = value;
  }
  if (isRecord(schema['properties'])) {
    const properties: JsonObject = {};
    for (const [name, child] of Object.entries(schema['properties'])) {
      properties[name] = convertGeminiSchema(child, `${path}.properties.${name}`);
    }
    out['properties'] = properties;
  }
  if (present(schema['items'])) out['items'] = convertGeminiSchema(schema['items'], `${path}.items`);
  if (Array.isArray(schema['anyOf'])) {
    const anyOf = schema['anyOf'].map((child, i) => convertGeminiSchema(child, `${path}.anyOf[${i}]`));
    out['anyOf'] = schema['nullable'] === true && type === undefined ? [...anyOf, { type: 'null' }] : anyOf;
  }
  return out;
}

/** `STRING` → `string`; `nullable` adds `null` to the type. */
function schemaType(raw: unknown, nullable: boolean): string | string[] | undefined {
  if (!isString(raw) || raw === '' || raw === 'TYPE_UNSPECIFIED') return undefined;
  const type = raw.toLowerCase();
  return nullable ? [type, 'null'] : type;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (isString(value) && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}
