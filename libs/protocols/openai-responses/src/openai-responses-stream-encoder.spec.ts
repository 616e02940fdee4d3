import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import { parseOpenAIChatSSE } from '@rosetta/protocols/openai-chat';
import { OpenAIResponsesStreamDecoder } from './openai-responses-stream-decoder';
import { OpenAIResponsesStreamEncoder } from './openai-responses-stream-encoder';
import { ToolNames } from './tool-names';

const ID = 'resp_0123456789abcdef0123456789abcdef';
const SUFFIX = ID.slice('resp_'.length);
const head = { id: ID, createdAt: 1764000000, model: 'rosetta/gpt-4o-mini', body: { input: 'x', store: true } };

function encoder(includeEncrypted = false, tools = new ToolNames(undefined)): OpenAIResponsesStreamEncoder {
  return new OpenAIResponsesStreamEncoder({ head, tools, includeEncrypted });
}

/** The frames as `[event name, data]`, checking each frame's name is its data's `type`. */
function frames(text: string): Array<Record<string, any>> {
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const [event, data] = frame.split('\n');
      const json = JSON.parse(data!.slice('data: '.length)) as Record<string, any>;
      expect(event).toBe(`event: ${json['type']}`);
      return json;
    });
}

const START: StreamEvent = { type: 'start', id: 'up', model: 'gpt-4o-mini', created: 1 };
const usage = { inputTokens: 10, outputTokens: 5, reasoningTokens: 2 };

describe('OpenAIResponsesStreamEncoder', () => {
  it('writes reasoning, text and a call as items with their part events, numbered from 0, and a completed response', () => {
    const enc = encoder();
    const events: StreamEvent[] = [
      START,
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-delta', index: 0, text: 'hmm' },
      { type: 'thinking-end', index: 0, signature: { protocol: 'anthropic', value: 'sig' } },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Hi ' },
      { type: 'text-delta', index: 1, text: 'there' },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 2 },
      { type: 'usage', usage },
      { type: 'finish', finishReason: { unified: 'tool_calls' }, usage },
    ];
    const out = frames(events.map((e) => enc.encode(e)).join(''));
    expect(out.map((f) => f['sequence_number'])).toEqual(out.map((_, i) => i));
    expect(out.map((f) => [f['type'], f['output_index'] ?? null])).toEqual([
      ['response.created', null],
      ['response.in_progress', null],
      ['response.output_item.added', 0],
      ['response.reasoning_summary_part.added', 0],
      ['response.reasoning_summary_text.delta', 0],
      ['response.reasoning_summary_text.done', 0],
      ['response.reasoning_summary_part.done', 0],
      ['response.output_item.done', 0],
      ['response.output_item.added', 1],
      ['response.content_part.added', 1],
      ['response.output_text.delta', 1],
      ['response.output_text.delta', 1],
      ['response.output_text.done', 1],
      ['response.content_part.done', 1],
      ['response.output_item.done', 1],
      ['response.output_item.added', 2],
      ['response.function_call_arguments.delta', 2],
      ['response.function_call_arguments.delta', 2],
      ['response.function_call_arguments.done', 2],
      ['response.output_item.done', 2],
      ['response.completed', null],
    ]);
    expect(out[0]!['response']).toEqual(expect.objectContaining({ id: ID, object: 'response', status: 'in_progress', model: 'rosetta/gpt-4o-mini', output: [], usage: null, store: true }));
    const message = { id: `msg_${SUFFIX}_1`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hi there' }] };
    const call = { id: `fc_${SUFFIX}_2`, type: 'function_call', status: 'completed', arguments: '{"a":1}', call_id: 'call_1', name: 'f' };
    // The client did not ask for encrypted reasoning: the item it sees has none.
    const reasoning = { id: `rs_${SUFFIX}_0`, type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }] };
    expect(out[7]).toEqual({ type: 'response.output_item.done', sequence_number: 7, output_index: 0, item: reasoning });
    expect(out[12]).toEqual({ type: 'response.output_text.done', sequence_number: 12, item_id: message.id, output_index: 1, content_index: 0, text: 'Hi there', logprobs: [] });
    expect(out[18]).toEqual({ type: 'response.function_call_arguments.done', sequence_number: 18, item_id: call.id, output_index: 2, name: 'f', arguments: '{"a":1}' });
    const completed = out[20]!['response'] as Record<string, unknown>;
    expect(completed).toEqual(expect.objectContaining({ status: 'completed', output: [reasoning, message, call], incomplete_details: null, error: null }));
    expect(completed['usage']).toEqual({ input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 15 });
    // What is stored keeps the encrypted reasoning (another provider's signature, wrapped).
    expect((enc.final!['output'] as Array<Record<string, unknown>>)[0]).toEqual({ ...reasoning, encrypted_content: `rosetta-sig.anthropic.${Buffer.from('sig').toString('base64url')}` });
  });

  it('gives reasoning its own id (the upstream\'s stays in the signature), sends encrypted content when asked, and puts a call signature in a reasoning item before its call', () => {
    const enc = encoder(true);
    const events: StreamEvent[] = [
      START,
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-end', index: 0, signature: { protocol: 'openai-responses', value: '{"id":"rs_up","encrypted_content":"gAAAAB"}' } },
      { type: 'tool-call-start', index: 1, id: 'call_g', name: 'f', signature: { protocol: 'gemini', value: 'gsig' } },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'tool_calls' } },
    ];
    const out = frames(events.map((e) => enc.encode(e)).join(''));
    const items = (out.at(-1)!['response'] as { output: unknown[] }).output;
    expect(items).toEqual([
      { id: `rs_${SUFFIX}_0`, type: 'reasoning', summary: [], encrypted_content: 'gAAAAB' },
      { id: `rs_${SUFFIX}_1`, type: 'reasoning', summary: [], encrypted_content: `rosetta-sig.gemini.call.${Buffer.from('gsig').toString('base64url')}` },
      { id: `fc_${SUFFIX}_2`, type: 'function_call', status: 'completed', arguments: '', call_id: 'call_g', name: 'f' },
    ]);
    // An empty thought streams no summary part.
    expect(out.map((f) => f['type'])).not.toContain('response.reasoning_summary_part.added');
  });

  it('sends a custom tool call whole, in its own shape, and its namespace back', () => {
    const tools = new ToolNames([
      { name: 'apply_patch', parameters: {}, custom: {} },
      { name: 'crm__lookup', parameters: {}, namespace: { name: 'crm' } },
    ]);
    const enc = new OpenAIResponsesStreamEncoder({ head, tools, includeEncrypted: false });
    const events: StreamEvent[] = [
      START,
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'apply_patch' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"input":"*** Begin' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ' Patch"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'c2', name: 'crm__lookup' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'tool_calls' } },
    ];
    const out = frames(events.map((e) => enc.encode(e)).join(''));
    expect(out.filter((f) => f['type'].startsWith('response.custom_tool_call_input'))).toEqual([
      expect.objectContaining({ type: 'response.custom_tool_call_input.delta', delta: '*** Begin Patch' }),
      expect.objectContaining({ type: 'response.custom_tool_call_input.done', input: '*** Begin Patch' }),
    ]);
    expect((out.at(-1)!['response'] as { output: unknown[] }).output).toEqual([
      { id: `ctc_${SUFFIX}_0`, type: 'custom_tool_call', status: 'completed', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
      { id: `fc_${SUFFIX}_1`, type: 'function_call', status: 'completed', arguments: '', call_id: 'c2', name: 'lookup', namespace: 'crm' },
    ]);
  });

  it('ends a stream cut by an error with the error event and a failed response, items marked incomplete', () => {
    const enc = encoder();
    const text = [START, { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, text: 'Par' }, { type: 'error', error: new GatewayError('upstream_error', 'Upstream service error: cut', { status: 502 }) }]
      .map((e) => enc.encode(e as StreamEvent))
      .join('');
    const out = frames(text);
    expect(out.slice(-4).map((f) => f['type'])).toEqual(['response.content_part.done', 'response.output_item.done', 'error', 'response.failed']);
    expect(out.at(-3)!['item']).toEqual(expect.objectContaining({ status: 'incomplete' }));
    expect(out.at(-2)).toEqual(expect.objectContaining({ code: 'server_error', message: 'Upstream service error: cut', param: null }));
    expect(out.at(-1)!['response']).toEqual(expect.objectContaining({ status: 'failed', error: { code: 'server_error', message: 'Upstream service error: cut' } }));
  });

  it('ends at the output cap with response.incomplete', () => {
    const enc = encoder();
    const out = frames([START, { type: 'finish', finishReason: { unified: 'length' } } as StreamEvent].map((e) => enc.encode(e)).join(''));
    expect(out.at(-1)).toEqual(expect.objectContaining({ type: 'response.incomplete', response: expect.objectContaining({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }) }));
  });

  it('round-trips: what it writes, the Responses upstream decoder reads back as the same events', async () => {
    const enc = encoder(true);
    const events: StreamEvent[] = [
      START,
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-delta', index: 0, text: 'plan' },
      { type: 'thinking-end', index: 0, signature: { protocol: 'openai-responses', value: '{"id":"rs_up","encrypted_content":"gAAAAB"}' } },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'ok' },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 2 },
      { type: 'usage', usage },
      { type: 'finish', finishReason: { unified: 'tool_calls', raw: 'completed' }, usage },
    ];
    const sse = events.map((e) => enc.encode(e)).join('');
    const decoder = new OpenAIResponsesStreamDecoder();
    const back: StreamEvent[] = [];
    for await (const chunk of parseOpenAIChatSSE(once(sse))) back.push(...decoder.push(chunk));
    back.push(...decoder.end());
    // The same events, but for the reasoning's id: the client saw (and sends back) the gateway's.
    const ours = `rs_${SUFFIX}_0`;
    const expected = events.slice(1).map((event) => {
      if (event.type === 'thinking-end') return { ...event, signature: { protocol: 'openai-responses', value: JSON.stringify({ id: ours, encrypted_content: 'gAAAAB' }) } };
      return event;
    });
    expect(back).toEqual([{ type: 'start', id: ID, model: 'rosetta/gpt-4o-mini', created: 1764000000 }, ...expected]);
  });
});

async function* once(text: string): AsyncIterable<string> {
  yield text;
}
