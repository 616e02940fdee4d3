import type { CanonicalRequest, CanonicalResponse, StreamEvent, ThinkingPart } from '@rosetta/canonical';
import type { StoredRecord } from '@rosetta/protocols/common';
import { parse as parseQuery } from 'node:querystring';
import { convertToOpenAIResponsesRequest } from './convert-to-openai-responses-request';
import { openAIResponsesDialect } from './openai-responses.dialect';
import { references } from './responses-conversation';

/**
 * The dialect as the gateway drives it: stored answers loaded by what the body refers to, new
 * answers kept, with an in-memory table standing in for stored_answers.
 */
class Store {
  readonly records = new Map<string, StoredRecord>();

  decode(body: Record<string, unknown>): { request: CanonicalRequest; answer(response: CanonicalResponse): Promise<Record<string, unknown>> } {
    const stored = new Map<string, StoredRecord>();
    for (const id of references(body)) if (this.records.has(id)) stored.set(id, this.records.get(id)!);
    const exchange = openAIResponsesDialect.decodeChat({
      body,
      query: {},
      headers: {},
      requestId: 'req_test',
      defaultModel: 'rosetta/auto',
      stored,
      keep: async ({ id, record }) => {
        this.records.set(id, structuredClone(record));
      },
    });
    return { request: exchange.request, answer: async (response) => (await exchange.encodeResponse(response)) as Record<string, unknown> };
  }
}

const answered = (content: CanonicalResponse['content']): CanonicalResponse => ({
  id: 'up_1',
  model: 'rosetta/gpt-5',
  created: 1,
  content,
  finishReason: { unified: 'stop', raw: 'completed' },
  usage: { inputTokens: 10, outputTokens: 5 },
});

/** An OpenAI reasoning id as the real API issues it: `rs_` and 48 hex digits, no other underscore. */
const OPENAI_REASONING_ID = 'rs_68af2c1e7d3c8190a1b2c3d4e5f60718293a4b5c6d7e8f90';
const openAIThinking: ThinkingPart = { type: 'thinking', text: 'Think first.', signature: { protocol: 'openai-responses', value: JSON.stringify({ id: OPENAI_REASONING_ID, encrypted_content: 'gAAAAB-enc' }) } };

describe('openAIResponsesDialect with stored answers', () => {
  it('continues by item_reference to reasoning a Responses upstream produced, as the AI SDK sends it with store: true', async () => {
    const store = new Store();
    const first = await store.decode({ model: 'rosetta/gpt-5', input: 'Name a colour' }).answer(answered([openAIThinking, { type: 'text', text: 'Blue.' }]));
    const [reasoning, message] = first['output'] as Array<{ id: string; type: string }>;
    expect([reasoning!.type, message!.type]).toEqual(['reasoning', 'message']);
    // The AI SDK's next turn: the question again, then references to both output items.
    const next = store.decode({
      model: 'rosetta/gpt-5',
      input: [{ role: 'user', content: 'Name a colour' }, { type: 'item_reference', id: reasoning!.id }, { type: 'item_reference', id: message!.id }, { role: 'user', content: 'Another' }],
    });
    expect(next.request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Name a colour' }] },
      { role: 'assistant', content: [expect.objectContaining({ type: 'thinking', text: 'Think first.' }), { type: 'text', text: 'Blue.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Another' }] },
    ]);
  });

  it('continues by item_reference to streamed reasoning a Responses upstream produced', async () => {
    const store = new Store();
    const exchange = openAIResponsesDialect.decodeChat({
      body: { model: 'rosetta/gpt-5', input: 'Name a colour', stream: true },
      query: {},
      headers: {},
      requestId: 'req_test',
      defaultModel: 'rosetta/auto',
      stored: new Map(),
      keep: async ({ id, record }) => {
        store.records.set(id, structuredClone(record));
      },
    });
    const framing = exchange.streamFraming('rosetta/gpt-5', 0);
    const events: StreamEvent[] = [
      { type: 'start', id: 'up_1', model: 'gpt-5', created: 1 },
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-delta', index: 0, text: 'Think first.' },
      { type: 'thinking-end', index: 0, signature: openAIThinking.signature },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Blue.' },
      { type: 'text-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'completed' }, usage: { inputTokens: 10, outputTokens: 5 } },
    ];
    let text = '';
    for (const event of events) {
      if (event.type === 'finish') await framing.beforeEnd!(event);
      text += framing.encode(event);
    }
    const completed = text.split('\n\n').find((frame) => frame.startsWith('event: response.completed'))!;
    const output = (JSON.parse(completed.slice(completed.indexOf('data: ') + 6)) as { response: { output: Array<{ id: string }> } }).response.output;
    const next = store.decode({ model: 'rosetta/gpt-5', input: [{ type: 'item_reference', id: output[0]!.id }, { type: 'item_reference', id: output[1]!.id }, { role: 'user', content: 'Another' }] });
    expect(next.request.messages).toEqual([
      { role: 'assistant', content: [expect.objectContaining({ type: 'thinking', text: 'Think first.' }), { type: 'text', text: 'Blue.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Another' }] },
    ]);
  });

  it('hands a Responses upstream the reasoning Codex replays exactly as Codex sent it, with no id of ours', () => {
    // Codex keeps no item ids (store: false); the gateway's own ids must not reach OpenAI either.
    const reasoning = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Look first.' }], content: null, encrypted_content: 'gAAAAB-enc' };
    const call = { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls"}' };
    const body = { model: 'rosetta/gpt-5-codex', store: false, include: ['reasoning.encrypted_content'], input: [{ role: 'user', content: [{ type: 'input_text', text: 'List' }] }, reasoning, call, { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' }] };
    const { request } = new Store().decode(body);
    const upstream = convertToOpenAIResponsesRequest({ request, upstreamModel: 'gpt-5-codex' }).value;
    expect((upstream['input'] as unknown[]).slice(1, 3)).toEqual([reasoning, call]);
  });

  it('shows a stored answer its encrypted reasoning when the openai SDK asks for it (include[] in the query)', async () => {
    const store = new Store();
    const first = await store.decode({ model: 'rosetta/gpt-5', input: 'Name a colour' }).answer(answered([openAIThinking, { type: 'text', text: 'Blue.' }]));
    const record = store.records.get(first['id'] as string)!;
    // `client.responses.retrieve(id, {include: [...]})` sends `?include%5B%5D=…` (qs, arrayFormat "brackets").
    const query = parseQuery('include%5B%5D=reasoning.encrypted_content');
    const again = openAIResponsesDialect.storage!.render(record, query) as { output: Array<Record<string, unknown>> };
    expect(again.output[0]).toEqual(expect.objectContaining({ type: 'reasoning', encrypted_content: 'gAAAAB-enc' }));
  });

  it('continues an AI SDK chat of 100 turns, each earlier answer an item_reference to its own stored response', async () => {
    // useChat with the default OpenAI provider (store: true) resends the conversation each turn:
    // the user's messages inline, every assistant message as a reference to the response that gave it.
    const store = new Store();
    const input: Array<Record<string, unknown>> = [];
    for (let turn = 1; turn <= 100; turn++) {
      input.push({ role: 'user', content: `Question ${turn}` });
      const answer = await store.decode({ model: 'rosetta/gpt-4o-mini', input }).answer(answered([{ type: 'text', text: `Answer ${turn}` }]));
      input.push({ type: 'item_reference', id: (answer['output'] as Array<{ id: string }>)[0]!.id });
    }
    expect(store.records.size).toBe(100);
  });
});
