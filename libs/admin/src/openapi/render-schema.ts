/**
 * A JSON schema of the OpenAPI document as HTML for `/docs`: one row per field (name, type,
 * required, description, enum values, default), nested objects in `<details>` that open without
 * script, `$ref` resolved against `components.schemas` and `allOf` merged. A schema already being
 * expanded further up the same branch is named, not expanded again, so cyclic schemas end.
 */

type Json = Record<string, unknown>;

/** Deeper than this, a nested object is named rather than expanded (no real schema here nests so far). */
const MAX_DEPTH = 8;

export const escapeHtml = (text: unknown): string =>
  String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Text from the document as HTML: escaped, with its `backticks` as code (the only markdown the document uses). */
export const prose = (text: unknown): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export class SchemaRenderer {
  constructor(private readonly schemas: Json) {}

  /** The fields of an object schema (or of the objects an array holds) as a list; '' when it has none. */
  fields(schema: unknown, path: readonly string[] = []): string {
    const { schema: resolved, path: inside } = this.resolve(schema, path);
    const object = this.objectOf(resolved, inside);
    if (!object) return '';
    const required = new Set(object.required);
    const rows = Object.entries(object.properties).map(([name, field]) => this.row(name, field, required.has(name), object.path));
    return rows.length ? `<ul class="fields">${rows.join('')}</ul>` : '';
  }

  /** A short name for a schema's type: `string`, `array of Plan`, `string | null`, `one of: A | B`. */
  typeOf(schema: unknown, path: readonly string[] = []): string {
    if (!isJson(schema)) return 'any';
    const name = refName(schema);
    if (name) {
      if (path.includes(name)) return name;
      // A named schema used as an array's items or as a field: its own type, with its name.
      const target = this.schemas[name];
      const inner = isJson(target) && !hasChildren(target) ? this.typeOf(target, [...path, name]) : 'object';
      return inner === 'object' ? name : inner;
    }
    if ('const' in schema) return JSON.stringify(schema['const']);
    const variants = (schema['oneOf'] ?? schema['anyOf']) as unknown[] | undefined;
    if (Array.isArray(variants)) return `one of: ${variants.map((v) => this.typeOf(v, path)).join(' | ')}`;
    if (Array.isArray(schema['allOf'])) return 'object';
    const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : typeof schema['type'] === 'string' ? [schema['type']] : [];
    if (types.length === 0) return isJson(schema['properties']) ? 'object' : 'any';
    return types.map((t) => (t === 'array' ? `array of ${this.typeOf(schema['items'], path)}` : t)).join(' | ');
  }

  private row(name: string, schema: unknown, required: boolean, path: readonly string[]): string {
    const { schema: resolved } = this.resolve(schema, path);
    const head =
      `<span class="f-name"><code>${escapeHtml(name)}</code></span>` +
      `<span class="f-type">${escapeHtml(this.typeOf(schema, path))}</span>` +
      (required ? '<span class="f-req">required</span>' : '') +
      notes(resolved, schema);
    const repeated = this.repeated(schema, path);
    if (repeated) return `<li class="field"><div class="f">${head}<span class="f-cycle">${escapeHtml(repeated)}: fields as above</span></div></li>`;
    const nested = path.length < MAX_DEPTH ? this.children(schema, path) : '';
    if (!nested) return `<li class="field"><div class="f">${head}</div></li>`;
    return `<li class="field"><details><summary class="f">${head}</summary>${nested}</details></li>`;
  }

  /** The fields under a field: an object's, an array's items', or each variant's of a oneOf. */
  private children(schema: unknown, path: readonly string[]): string {
    const { schema: resolved, path: inside } = this.resolve(schema, path);
    const variants = (resolved['oneOf'] ?? resolved['anyOf']) as unknown[] | undefined;
    if (Array.isArray(variants)) {
      return variants
        .map((variant) => [this.typeOf(variant, inside), this.fields(variant, inside)] as const)
        .filter(([, fields]) => fields !== '')
        .map(([type, fields]) => `<div class="variant">${escapeHtml(type)}:</div>${fields}`)
        .join('');
    }
    if (this.objectOf(resolved, inside)) return this.fields(resolved, inside);
    const items = resolved['items'];
    return items === undefined ? '' : this.children(items, inside);
  }

  /** The name of a `$ref` (directly, or as an array's items) already expanded on this branch. */
  private repeated(schema: unknown, path: readonly string[]): string | undefined {
    if (!isJson(schema)) return undefined;
    const name = refName(schema) ?? (isJson(schema['items']) ? refName(schema['items']) : undefined);
    return name && path.includes(name) ? name : undefined;
  }

  private resolve(schema: unknown, path: readonly string[]): { schema: Json; path: readonly string[] } {
    if (!isJson(schema)) return { schema: {}, path };
    const name = refName(schema);
    if (!name) return { schema, path };
    if (path.includes(name)) return { schema: {}, path };
    const target = this.schemas[name];
    return isJson(target) ? this.resolve(target, [...path, name]) : { schema: {}, path };
  }

  /** An object's properties and required names, `allOf` parts merged in; undefined when it has none. */
  private objectOf(schema: Json, path: readonly string[]): { properties: Json; required: string[]; path: readonly string[] } | undefined {
    const properties: Json = { ...(isJson(schema['properties']) ? schema['properties'] : {}) };
    const required = Array.isArray(schema['required']) ? [...(schema['required'] as string[])] : [];
    let inner = path;
    for (const part of Array.isArray(schema['allOf']) ? (schema['allOf'] as unknown[]) : []) {
      const resolved = this.resolve(part, path);
      const merged = this.objectOf(resolved.schema, resolved.path);
      if (!merged) continue;
      Object.assign(properties, merged.properties);
      required.push(...merged.required);
      inner = [...new Set([...inner, ...merged.path])];
    }
    return Object.keys(properties).length ? { properties, required, path: inner } : undefined;
  }
}

function refName(schema: Json): string | undefined {
  const ref = schema['$ref'];
  return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
}

function hasChildren(schema: Json): boolean {
  return isJson(schema['properties']) || Array.isArray(schema['allOf']) || Array.isArray(schema['oneOf']) || Array.isArray(schema['anyOf']);
}

/** Description, allowed values, default and bounds, as the field's notes. */
function notes(schema: Json, own: unknown): string {
  const description = (isJson(own) && own['description']) || schema['description'];
  const parts: string[] = [];
  if (description) parts.push(`<span class="f-desc">${prose(description)}</span>`);
  const values = Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : isJson(schema['items']) && Array.isArray(schema['items']['enum']) ? (schema['items']['enum'] as unknown[]) : undefined;
  if (values) parts.push(`<span class="f-enum">one of ${values.map((v) => `<code>${escapeHtml(v === null ? 'null' : v)}</code>`).join(' ')}</span>`);
  if ('default' in schema) parts.push(`<span class="f-default">default <code>${escapeHtml(JSON.stringify(schema['default']))}</code></span>`);
  const bounds = [schema['minimum'] !== undefined ? `≥ ${String(schema['minimum'])}` : '', schema['maximum'] !== undefined ? `≤ ${String(schema['maximum'])}` : ''].filter(Boolean);
  if (bounds.length) parts.push(`<span class="f-bounds">${escapeHtml(bounds.join(', '))}</span>`);
  return parts.join('');
}
