/**
 * Hostile request bodies for the fuzz suites (the dialect decoders here, the HTTP entry in
 * test/fuzz.e2e-spec.ts): valid seed bodies of each dialect and fast-check recipes that mutate
 * them — a wrong type at any path, the right type with odd content, null, huge or non-finite
 * numbers, odd unicode, prototype keys, members removed or added, nesting right up to
 * MAX_JSON_DEPTH. Every body built here is one
 * JSON.parse could have produced from a request, and none nests deeper than the limit (deeper
 * bodies never reach a decoder: read-json-body refuses them).
 */
import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '../common/json-nesting';

export type Dialect = 'openai' | 'anthropic' | 'gemini' | 'openai-responses';
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Step = string | number;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string', description: 'City' }, days: { type: 'array', items: { type: 'integer' } } }, required: ['city'] };

/** Valid bodies, plain and with every feature a decoder branches on (tools, images, thinking, routing fields). */
export const SEEDS: Record<Dialect, readonly Json[]> = {
  openai: [
    { model: 'rosetta/gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }], temperature: 0.2, max_tokens: 64 },
    {
      model: 'rosetta/claude-haiku-4-5',
      models: ['rosetta/gemini-2.5-flash'],
      provider_sort: 'price',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'developer', content: 'Use tools.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"celsius":21}' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: WEATHER_SCHEMA, strict: true } }],
      tool_choice: 'auto',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } } } } },
      stop: ['END'],
      reasoning_effort: 'low',
      user: 'u-1',
    },
  ],
  anthropic: [
    { model: 'rosetta/claude-haiku-4-5', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] },
    {
      model: 'rosetta/gemini-2.5-flash',
      max_tokens: 2048,
      stream: true,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      system: [{ type: 'text', text: 'Use tools.', cache_control: { type: 'ephemeral' } }],
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: WEATHER_SCHEMA }],
      tool_choice: { type: 'auto' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Look it up.', signature: 'c2ln' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21 C' }] }] },
      ],
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
      models: ['rosetta/gpt-4o-mini'],
    },
  ],
  gemini: [
    { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], generationConfig: { temperature: 0.5, maxOutputTokens: 64 } },
    {
      system_instruction: { parts: [{ text: 'Use tools.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }, { inline_data: { mime_type: 'image/png', data: PNG } }] },
        { role: 'model', parts: [{ function_call: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ function_response: { name: 'get_weather', response: { celsius: 21 } } }] },
      ],
      tools: [{ function_declarations: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] }],
      tool_config: { function_calling_config: { mode: 'AUTO' } },
      generation_config: {
        response_mime_type: 'application/json',
        response_schema: { type: 'OBJECT', properties: { text: { type: 'STRING', nullable: true } } },
        thinking_config: { thinking_budget: 128, include_thoughts: true },
        stop_sequences: ['END'],
      },
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      models: ['rosetta/claude-haiku-4-5'],
    },
  ],
  'openai-responses': [
    { model: 'rosetta/gpt-4o-mini', instructions: 'Be brief.', input: 'Hello', max_output_tokens: 64, temperature: 0.2, presence_penalty: 0.5, frequency_penalty: -0.5 },
    {
      model: 'rosetta/claude-haiku-4-5',
      models: ['rosetta/gemini-2.5-flash'],
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low', summary: 'auto' },
      prompt_cache_key: 'session-1',
      client_metadata: { session_id: 's-1' },
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Use tools.' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look it up.' }], content: null, encrypted_content: 'gAAAAB' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"celsius":21}' },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: WEATHER_SCHEMA, strict: true },
        { type: 'custom', name: 'apply_patch', description: 'Patch files', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
        // A copy: mutations edit seeds in place, and a shared object would be edited at two depths.
        { type: 'namespace', name: 'crm', description: 'CRM', tools: [{ type: 'function', name: 'lookup', parameters: structuredClone(WEATHER_SCHEMA) }] },
        { type: 'web_search' },
      ],
      tool_choice: 'auto',
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } } } } },
      metadata: { ticket: '42' },
      user: 'u-1',
    },
  ],
};

/** Member names the decoders look for, so added members hit real branches, not only ignored ones. */
const VOCABULARY = [
  'model', 'models', 'messages', 'role', 'content', 'text', 'type', 'tools', 'tool_calls', 'tool_call_id', 'function', 'arguments',
  'parameters', 'name', 'image_url', 'url', 'input_schema', 'input', 'tool_use_id', 'source', 'data', 'media_type', 'thinking',
  'signature', 'system', 'max_tokens', 'stream', 'contents', 'parts', 'functionCall', 'function_call', 'args', 'functionResponse',
  'response', 'inlineData', 'fileData', 'systemInstruction', 'generationConfig', 'responseSchema', 'properties', 'items', 'anyOf',
  'enum', 'required', 'thinkingConfig', 'cache_control', 'provider_configs', 'route_knob', 'response_format', 'json_schema', 'schema',
  'stop', 'n', 'candidateCount', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'instructions', 'call_id', 'output',
  'summary', 'encrypted_content', 'previous_response_id', 'item_reference', 'namespace', 'format', 'reasoning', 'effort', 'include',
  'presence_penalty', 'frequency_penalty', 'strict', 'description',
];

/** What goes in place of a member: every JSON type, edge numbers (1e400 parses to Infinity), odd text. */
type Hostile = { kind: 'value'; value: Json } | { kind: 'deep'; keys: string[]; full: boolean; pick: number };

const edgeNumber = fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, 5e-324, Infinity, -Infinity);
const oddString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }), // lone surrogates included
  fc.constantFrom('', ' ', '\u0000', '\u202e', '🦀'.repeat(50), 'x'.repeat(20_000), 'rosetta/', 'rosetta/auto', 'models/x', '%ZZ', 'null', '{}', '__proto__'),
);
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  edgeNumber,
  fc.integer(),
  fc.double({ noNaN: true }),
  oddString,
  fc.constantFrom<Json>([], {}, [null], [[]], { type: null }, { type: 'text' }, { type: 'function' }, { role: 'user' }, { parts: [] }),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);
const hostileOver = (vocabulary: readonly string[]): fc.Arbitrary<Hostile> =>
  fc.oneof(
    { weight: 6, arbitrary: hostileValue.map((value) => ({ kind: 'value' as const, value })) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('deep' as const), keys: fc.array(fc.constantFrom(...vocabulary, ''), { minLength: 1, maxLength: 4 }), full: fc.boolean(), pick: fc.nat() }) },
  );

export type Mutation =
  | { op: 'replace'; at: number; with: Hostile }
  | { op: 'add'; at: number; key: string; with: Hostile }
  | { op: 'perturb'; at: number; text: string; number: number }
  | { op: 'delete' | 'wrap'; at: number };

function mutationOver(vocabulary: readonly string[]): fc.Arbitrary<Mutation> {
  const hostile = hostileOver(vocabulary);
  return fc.oneof(
    // Same type, hostile content: what gets past the type checks into the conversion.
    { weight: 4, arbitrary: fc.record({ op: fc.constant('perturb' as const), at: fc.nat(), text: oddString, number: fc.oneof(edgeNumber, fc.double({ noNaN: true })) }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), with: hostile }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 8 })), with: hostile }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('wrap' as const), at: fc.nat() }) },
  );
}

export const mutation: fc.Arbitrary<Mutation> = mutationOver(VOCABULARY);

/**
 * A seed of the dialect with one to four mutations applied, or any JSON value at all; in the end
 * exactly what JSON.parse makes of the body's text (own `__proto__` members, plain prototypes).
 */
export function hostileBody(dialect: Dialect): fc.Arbitrary<Json> {
  return hostileBodyFrom(SEEDS[dialect]);
}

/** The same recipes over other seeds (the embeddings bodies), with their member names added to the vocabulary. */
export function hostileBodyFrom(seeds: readonly Json[], extraVocabulary: readonly string[] = []): fc.Arbitrary<Json> {
  const vocabulary = extraVocabulary.length === 0 ? VOCABULARY : [...VOCABULARY, ...extraVocabulary];
  const mutated = fc
    .tuple(fc.nat({ max: seeds.length - 1 }), fc.array(vocabulary === VOCABULARY ? mutation : mutationOver(vocabulary), { minLength: 1, maxLength: 3 }))
    .map(([seed, mutations]) => mutate(seeds[seed]!, mutations));
  const random = fc.oneof(fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>, fc.dictionary(fc.constantFrom(...vocabulary), hostileValue, { maxKeys: 6, noNullPrototype: true }));
  return fc.oneof({ weight: 7, arbitrary: mutated }, { weight: 1, arbitrary: random }).map((body) => JSON.parse(toJsonText(body)) as Json);
}

/** Applies mutations to a copy of `seed`; each picks its target among all paths of the body as it is then. */
export function mutate(seed: Json, mutations: readonly Mutation[]): Json {
  let body = structuredClone(seed);
  for (const m of mutations) {
    const all = paths(body);
    const path = all[m.at % all.length]!;
    const budget = MAX_JSON_DEPTH - path.length;
    const target = getAt(body, path);
    switch (m.op) {
      case 'replace':
        body = setAt(body, path, realise(m.with, budget));
        break;
      case 'perturb':
        body = setAt(body, path, perturb(target, m.text, m.number));
        break;
      case 'delete':
        body = path.length === 0 ? {} : deleteAt(body, path);
        break;
      case 'wrap':
        if (depthOf(target) < budget) body = setAt(body, path, m.at % 2 === 0 ? [target] : { value: target });
        break;
      case 'add':
        if (Array.isArray(target)) target.push(realise(m.with, budget - 1));
        else if (isObject(target)) defineOwn(target, m.key, realise(m.with, budget - 1));
        else body = setAt(body, path, realise(m.with, budget));
    }
  }
  return body;
}

/** The same JSON type with other content: odd text, an edge number, an emptied or doubled container. */
function perturb(value: Json, text: string, number: number): Json {
  if (typeof value === 'string' || value === null) return text;
  if (typeof value === 'number') return number;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return text.length % 2 === 0 ? [] : [...value, ...value];
  return text.length % 2 === 0 ? {} : value;
}

/** A concrete value that fits in `budget` more levels of nesting. */
function realise(h: Hostile, budget: number): Json {
  if (budget <= 0) return null;
  if (h.kind === 'value') return depthOf(h.value) <= budget ? structuredClone(h.value) : null;
  return nested(h.full ? budget : 1 + (h.pick % budget), h.keys);
}

/** `levels` containers, one inside the other, cycling through `keys` (`''` for an array level). */
export function nested(levels: number, keys: readonly string[] = ['a']): Json {
  let value: Json = 'leaf';
  for (let i = levels - 1; i >= 0; i--) {
    const key = keys[i % keys.length]!;
    if (key === '') value = [value];
    else {
      const object: { [key: string]: Json } = {};
      defineOwn(object, key, value);
      value = object;
    }
  }
  return value;
}

/** Nesting depth (`{}` is 1, a scalar 0), without recursion. */
export function depthOf(root: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Every path in the body, the root (`[]`) included, without recursion. */
function paths(root: Json): Step[][] {
  const out: Step[][] = [];
  const stack: Array<[Json, Step[]]> = [[root, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    out.push(path);
    if (Array.isArray(value)) value.forEach((child, i) => stack.push([child, [...path, i]]));
    else if (isObject(value)) for (const key of Object.keys(value)) stack.push([value[key]!, [...path, key]]);
  }
  return out;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** As JSON.parse does it: `__proto__` becomes an own member, never the prototype. */
function defineOwn(object: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function getAt(root: Json, path: readonly Step[]): Json {
  let value = root;
  for (const step of path) value = (value as Record<Step, Json>)[step]!;
  return value;
}

function setAt(root: Json, path: readonly Step[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) parent[last as number] = replacement;
  else defineOwn(parent as { [key: string]: Json }, last as string, replacement);
  return root;
}

function deleteAt(root: Json, path: readonly Step[]): Json {
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete (parent as Record<string, Json>)[last as string];
  return root;
}

/** JSON text for a body; ±Infinity (which a body can only carry as 1e400) written that way. */
export function toJsonText(body: Json): string {
  return JSON.stringify(body, (_key, value: unknown) => (value === Infinity ? '\u0000+inf' : value === -Infinity ? '\u0000-inf' : value))
    .replaceAll('"\\u0000+inf"', '1e400')
    .replaceAll('"\\u0000-inf"', '-1e400');
}
