import { SchemaRenderer } from './render-schema';

/** The rows of rendered fields as plain text, nesting shown by indentation (two spaces a level). */
function rows(html: string): string[] {
  const out: string[] = [];
  let depth = -1;
  for (const token of html.match(/<ul class="fields">|<\/ul>|<(?:div|summary) class="f">.*?<\/(?:div|summary)>/g) ?? []) {
    if (token === '<ul class="fields">') depth += 1;
    else if (token === '</ul>') depth -= 1;
    else out.push(`${'  '.repeat(depth)}${token.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()}`);
  }
  return out;
}

describe('SchemaRenderer', () => {
  const renderer = new SchemaRenderer({
    Message: { type: 'object', required: ['role'], properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content: { type: ['string', 'null'], description: 'The text' } } },
    Request: { type: 'object', required: ['messages'], properties: { model: { type: 'string', default: 'rosetta/auto' }, messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } } } },
    // A tree: each node holds nodes of its own kind.
    Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, parent: { $ref: '#/components/schemas/Node' } } },
    Loop: { $ref: '#/components/schemas/Loop' },
  });

  it('resolves $ref, merges allOf, and nests the fields of objects held in arrays', () => {
    const schema = { allOf: [{ $ref: '#/components/schemas/Request' }, { type: 'object', properties: { route_knob: { type: 'number', minimum: 0, maximum: 1 } } }] };
    expect(rows(renderer.fields(schema))).toEqual([
      'model string default &quot;rosetta/auto&quot;',
      'messages array of Message required',
      '  role string required one of user assistant',
      '  content string | null The text',
      'route_knob number ≥ 0, ≤ 1',
    ]);
    expect(renderer.fields(schema)).toContain('<details><summary class="f">');
  });

  it('names a schema met again on the same branch instead of expanding it forever', () => {
    expect(rows(renderer.fields({ $ref: '#/components/schemas/Node' }))).toEqual([
      'name string',
      'children array of Node Node: fields as above',
      'parent Node Node: fields as above',
    ]);
    expect(renderer.fields({ $ref: '#/components/schemas/Loop' })).toBe('');
    expect(renderer.typeOf({ $ref: '#/components/schemas/Loop' })).toBe('Loop');
  });

  it('describes types in a few words, and escapes what it shows', () => {
    expect(renderer.typeOf({ oneOf: [{ $ref: '#/components/schemas/Message' }, { type: 'string' }] })).toBe('one of: Message | string');
    expect(renderer.typeOf({ const: 'list' })).toBe('"list"');
    expect(renderer.typeOf({})).toBe('any');
    expect(rows(renderer.fields({ type: 'object', properties: { '<b>': { type: 'string', description: 'a & b' } } }))).toEqual(['&lt;b&gt; string a &amp; b']);
    expect(renderer.fields({ type: 'object', properties: { models: { type: 'array', items: { type: 'string' }, description: 'Fallback chain after `model`' } } })).toContain('<span class="f-desc">Fallback chain after <code>model</code></span>');
  });
});
