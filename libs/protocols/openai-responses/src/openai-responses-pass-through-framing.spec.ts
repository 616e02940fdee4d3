import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import { fixtureEvents } from './__fixtures__/load-fixture';
import { OpenAIResponsesPassThroughFraming } from './openai-responses-pass-through-framing';
import { OpenAIResponsesStreamScanner } from './openai-responses-stream-scanner';

const ID = 'resp_0123456789abcdef0123456789abcdef';
const SUFFIX = ID.slice('resp_'.length);
const head = { id: ID, createdAt: 1764000000, model: 'rosetta/gpt-5-codex', body: { input: 'x', store: true, previous_response_id: 'resp_ffffffffffffffffffffffffffffffff' } };

/** The recorded stream as the upstream wrote it: compact JSON, each event named by its type. */
function upstream(name: string): string[] {
  return fixtureEvents(`responses-${name}.events.jsonl`).map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** The recorded stream scanned, its usage priced, and written by the framing. */
function relay(name: string, includeEncrypted = false, costUsd = 0.0021): { text: string; framing: OpenAIResponsesPassThroughFraming } {
  const scanner = new OpenAIResponsesStreamScanner();
  const framing = new OpenAIResponsesPassThroughFraming({ head, includeEncrypted });
  const events = [...upstream(name).flatMap((text) => scanner.push({ event: text.slice(7, text.indexOf('\n')), data: text.slice(text.indexOf('data: ') + 6, -2), final: false })), ...scanner.end()];
  const priced = (event: StreamEvent): StreamEvent => (event.type === 'usage' || (event.type === 'finish' && event.usage) ? { ...event, usage: { ...event.usage!, costUsd } } : event);
  return { text: events.map((event) => framing.encode(priced(event))).join(''), framing };
}

/** The frames' data, checking each frame's name is its data's type. */
function frames(text: string): Array<Record<string, any>> {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [event, data] = frame.split('\n');
      const json = JSON.parse(data!.slice('data: '.length)) as Record<string, any>;
      expect(event).toBe(`event: ${json['type']}`);
      return json;
    });
}

describe('OpenAIResponsesPassThroughFraming', () => {
  it("opens with the gateway's response, echoing what the client sent, in the upstream's sequence", () => {
    const out = frames(relay('reasoning-tools').text);
    expect(out.map((f) => f['sequence_number'])).toEqual(out.map((_, i) => i));
    for (const opening of out.slice(0, 1)) {
      expect(opening['response']).toEqual(expect.objectContaining({ id: ID, model: 'rosetta/gpt-5-codex', status: 'in_progress', store: true, previous_response_id: 'resp_ffffffffffffffffffffffffffffffff', output: [] }));
    }
  });

  it('gives each item the id derived from the response, and changes only that id in the events that name it', () => {
    const { text } = relay('reasoning-tools');
    const client = text.split(/(?<=\n\n)/);
    const recorded = upstream('reasoning-tools');
    const ours: Record<string, string> = { rs_9: `rs_${SUFFIX}_0`, fc_1: `fc_${SUFFIX}_1`, fc_2: `fc_${SUFFIX}_2` };
    expect(client).toHaveLength(recorded.length);
    for (const [i, frame] of recorded.entries()) {
      const data = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as Record<string, any>;
      if (typeof data['item_id'] === 'string') expect(client[i]).toEqual(frame.replace(`"item_id":"${data['item_id']}"`, `"item_id":"${ours[data['item_id']]}"`));
      if (data['item']) expect(frames(client[i]!)[0]!['item']['id']).toEqual(ours[data['item']['id']]);
    }
  });

  it('ends with the response assembled from the items as done, priced, encrypted reasoning kept for the store only', () => {
    const { text, framing } = relay('reasoning-tools');
    const completed = frames(text).at(-1)!;
    expect(completed['type']).toBe('response.completed');
    expect(completed['response']).toEqual(
      expect.objectContaining({
        id: ID,
        status: 'completed',
        usage: { input_tokens: 120, input_tokens_details: { cached_tokens: 100 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: 16 }, total_tokens: 160, cost: 0.0021 },
      }),
    );
    const output = completed['response']['output'] as Array<Record<string, any>>;
    expect(output.map((item) => [item['id'], item['type'], item['call_id'] ?? null])).toEqual([
      [`rs_${SUFFIX}_0`, 'reasoning', null],
      [`fc_${SUFFIX}_1`, 'function_call', 'call_a'],
      [`fc_${SUFFIX}_2`, 'function_call', 'call_b'],
    ]);
    expect(JSON.stringify(frames(text))).not.toContain('encrypted_content');
    expect((framing.final!['output'] as Array<Record<string, any>>)[0]!['encrypted_content']).toBe('gAAAAABenc');
    expect(frames(relay('reasoning-tools', true).text).at(-1)!['response']['output'][0]['encrypted_content']).toBe('gAAAAABenc');
  });

  it('ends an incomplete upstream answer as incomplete', () => {
    expect(frames(relay('incomplete').text).at(-1)).toEqual(expect.objectContaining({ type: 'response.incomplete', response: expect.objectContaining({ id: ID, status: 'incomplete' }) }));
  });

  it('ends a cut stream as the full encoder does: the open item done as incomplete, the error, the failed response', () => {
    const { text, framing } = relay('cut');
    const out = frames(text);
    expect(out.map((f) => f['sequence_number'])).toEqual(out.map((_, i) => i));
    expect(out.slice(-3).map((f) => f['type'])).toEqual(['response.output_item.done', 'error', 'response.failed']);
    expect(out.at(-3)!['item']).toEqual(expect.objectContaining({ id: `msg_${SUFFIX}_0`, status: 'incomplete' }));
    expect(out.at(-2)).toEqual(expect.objectContaining({ code: 'server_error', message: 'Upstream service error: stream ended before the response completed' }));
    expect(framing.final).toEqual(expect.objectContaining({ id: ID, status: 'failed', error: expect.objectContaining({ code: 'server_error' }) }));
  });

  it('writes nothing after its end, and serialises an event again when its item_id is laid out otherwise', () => {
    const { framing } = relay('text');
    expect(framing.encode({ type: 'error', error: new GatewayError('upstream_error', 'late', { status: 502 }) })).toBe('');
    const fresh = new OpenAIResponsesPassThroughFraming({ head, includeEncrypted: false });
    const added = { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'msg_up', type: 'message', status: 'in_progress', content: [], role: 'assistant' } };
    fresh.encode({ type: 'wire', text: '', payload: '', data: added, content: false, outputChars: 0 });
    const delta = { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_up', output_index: 0, content_index: 0, delta: 'hi' };
    const spaced = `event: response.output_text.delta\ndata: ${JSON.stringify(delta, null, 1).replace(/\n/g, '')}\n\n`;
    expect(frames(fresh.encode({ type: 'wire', text: spaced, payload: '', data: delta, content: true, outputChars: 2 }))).toEqual([{ ...delta, item_id: `msg_${SUFFIX}_0` }]);
  });
});

describe('OpenAIResponsesPassThroughFraming, an opening event without the usual fields', () => {
  it("still writes the gateway's response as valid JSON", () => {
    const framing = new OpenAIResponsesPassThroughFraming({ head, includeEncrypted: false });
    const text = framing.encode({ type: 'wire', text: '', payload: '', data: { response: { id: 'up' } }, content: false, outputChars: 0 });
    expect(JSON.parse(text.slice(text.indexOf('data: ') + 6))).toEqual({ response: expect.objectContaining({ id: ID, status: 'in_progress' }) });
  });
});

describe('OpenAIResponsesPassThroughFraming, streams cut short and items it does not name', () => {
  /** Events written by the framing from upstream event data, as the scanner would hand them over. */
  const feed = (framing: OpenAIResponsesPassThroughFraming, events: Array<Record<string, unknown>>): string =>
    events.map((data) => framing.encode({ type: 'wire', text: `event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`, payload: JSON.stringify(data), data, content: false, outputChars: 0 })).join('');
  const cut = new GatewayError('upstream_error', 'Upstream service error: stream ended before the response completed', { status: 502 });

  it('keeps what an item cut short had said, in the client view and in the stored response', () => {
    const framing = new OpenAIResponsesPassThroughFraming({ head, includeEncrypted: false });
    const text =
      feed(framing, [
        { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'rs_up', type: 'reasoning', summary: [] } },
        { type: 'response.reasoning_summary_part.added', sequence_number: 2, item_id: 'rs_up', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
        { type: 'response.reasoning_summary_text.delta', sequence_number: 3, item_id: 'rs_up', output_index: 0, summary_index: 0, delta: 'Thinking' },
        { type: 'response.output_item.added', sequence_number: 4, output_index: 1, item: { id: 'msg_up', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
        { type: 'response.content_part.added', sequence_number: 5, item_id: 'msg_up', output_index: 1, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } },
        { type: 'response.output_text.delta', sequence_number: 6, item_id: 'msg_up', output_index: 1, content_index: 0, delta: 'Hello ' },
        { type: 'response.output_text.delta', sequence_number: 7, item_id: 'msg_up', output_index: 1, content_index: 0, delta: 'world' },
        { type: 'response.output_item.added', sequence_number: 8, output_index: 2, item: { id: 'fc_up', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'f', arguments: '' } },
        { type: 'response.function_call_arguments.delta', sequence_number: 9, item_id: 'fc_up', output_index: 2, delta: '{"a":' },
      ]) + framing.encode({ type: 'error', error: cut });
    const out = frames(text);
    expect(out.map((f) => f['sequence_number'])).toEqual(out.map((_, i) => i + 1));
    const failed = out.at(-1)!['response'] as Record<string, any>;
    expect(failed['output']).toEqual([
      { id: `rs_${SUFFIX}_0`, type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking' }], status: 'incomplete' },
      { id: `msg_${SUFFIX}_1`, type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', annotations: [], text: 'Hello world' }] },
      { id: `fc_${SUFFIX}_2`, type: 'function_call', status: 'incomplete', call_id: 'call_1', name: 'f', arguments: '{"a":' },
    ]);
    expect(framing.final!['output']).toEqual(failed['output']);
  });

  it("keeps a hosted tool's item under the upstream's id, which the upstream wants back", () => {
    const framing = new OpenAIResponsesPassThroughFraming({ head, includeEncrypted: false });
    const item = { id: 'ws_up', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q' } };
    const text = feed(framing, [{ type: 'response.output_item.done', sequence_number: 1, output_index: 0, item }]);
    expect(frames(text)[0]!['item']).toEqual(item);
  });

  it('drops an item event it cannot place rather than forward it unrewritten', () => {
    const framing = new OpenAIResponsesPassThroughFraming({ head, includeEncrypted: false });
    const item = { id: 'rs_up', type: 'reasoning', summary: [], encrypted_content: 'secret' };
    expect(feed(framing, [{ type: 'response.output_item.added', sequence_number: 1, output_index: 3, item }])).toBe('');
    expect(feed(framing, [{ type: 'response.output_item.added', sequence_number: 2, item }])).toBe('');
  });

  it('numbers its own events on from events the upstream did not number', () => {
    const framing = new OpenAIResponsesPassThroughFraming({ head, includeEncrypted: false });
    feed(framing, [{ type: 'response.created', response: {} }, { type: 'response.in_progress', response: {} }]);
    expect(frames(framing.encode({ type: 'finish', finishReason: { unified: 'stop' } }))[0]!['sequence_number']).toBe(2);
  });
});
