import { thinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

const HEADERS = { 'x-api-key': 'sk-ant-sim', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };

type Message = { role: string; content: unknown };

const question: Message = { role: 'user', content: 'weather in Paris?' };
const toolUse = (id: string, input: unknown = { city: 'Paris' }): Record<string, unknown> => ({ type: 'tool_use', id, name: 'get_weather', input });
const toolResult = (id: string): Record<string, unknown> => ({ type: 'tool_result', tool_use_id: id, content: 'sunny' });
const signedThinking = (text: string): Record<string, unknown> => ({ type: 'thinking', thinking: text, signature: thinkingSignature('anthropic', text) });

/** Posts a conversation; returns status and, for 400s, the error message. */
async function send(sim: RunningSimulator, messages: Message[], extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<{ status: number; message?: string }> {
  const response = await fetch(`${sim.url}/v1/messages`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify({ model: 'm', max_tokens: 2048, messages, ...extra }),
  });
  const body = (await response.json()) as { type: string; error?: { type: string; message: string } };
  if (response.status !== 400) return { status: response.status };
  expect(body.type).toBe('error');
  expect(body.error?.type).toBe('invalid_request_error');
  return { status: 400, message: body.error?.message };
}

const THINKING = { thinking: { type: 'enabled', budget_tokens: 1024 } };

describe('Anthropic strictness (each rule: one accepted and one rejected request)', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('accepts consecutive same-role messages, as the real API merges them', async () => {
    expect(await send(sim, [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }])).toEqual({ status: 200 });
  });

  it('rejects a system role inside messages', async () => {
    expect(await send(sim, [{ role: 'system', content: 'be nice' }, question])).toEqual({
      status: 400,
      message: expect.stringMatching(/^messages\.0\.role: Unexpected role "system"/),
    });
    expect(await send(sim, [question], { system: 'be nice' })).toEqual({ status: 200 });
    // Accepted in the conversation under Anthropic's mid-conversation-system beta (Claude Code sends it).
    expect(await send(sim, [question, { role: 'system', content: 'be nice' }], {}, { 'anthropic-beta': 'claude-code-20250219,mid-conversation-system-2026-04-07' })).toEqual({ status: 200 });
  });

  it('rejects temperature above 1', async () => {
    expect(await send(sim, [question], { temperature: 1 })).toEqual({ status: 200 });
    expect(await send(sim, [question], { temperature: 1.5 })).toEqual({ status: 400, message: 'temperature: Input should be less than or equal to 1' });
  });

  it('requires tool_use.input to be an object', async () => {
    const ok = [question, { role: 'assistant', content: [toolUse('t1')] }, { role: 'user', content: [toolResult('t1')] }];
    expect(await send(sim, ok)).toEqual({ status: 200 });
    const bad = [question, { role: 'assistant', content: [toolUse('t1', '{"city":"Paris"}')] }, { role: 'user', content: [toolResult('t1')] }];
    expect(await send(sim, bad)).toEqual({ status: 400, message: 'messages.1.content.0.tool_use.input: Input should be a valid dictionary' });
  });

  it('requires every tool_result to answer a tool_use of the immediately preceding assistant message', async () => {
    const stale = [
      question,
      { role: 'assistant', content: [toolUse('t1')] },
      { role: 'user', content: [toolResult('t1')] },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: [toolResult('t1')] },
    ];
    expect(await send(sim, stale)).toEqual({
      status: 400,
      message: expect.stringMatching(/^messages\.4\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: t1\./),
    });
    expect(await send(sim, stale.slice(0, 4).concat([{ role: 'user', content: 'thanks' }]))).toEqual({ status: 200 });
  });

  it('requires tool_result blocks to come first in their user message', async () => {
    const assistant = { role: 'assistant', content: [toolUse('t1')] };
    expect(await send(sim, [question, assistant, { role: 'user', content: [toolResult('t1'), { type: 'text', text: 'and?' }] }])).toEqual({ status: 200 });
    const late = await send(sim, [question, assistant, { role: 'user', content: [{ type: 'text', text: 'here:' }, toolResult('t1')] }]);
    expect(late).toEqual({ status: 400, message: expect.stringMatching(/^messages\.2\.content\.1: `tool_result` blocks must come first/) });
  });

  it('requires every tool_use to be answered in the next user message, when there is one', async () => {
    const assistant = { role: 'assistant', content: [toolUse('t1'), toolUse('t2')] };
    expect(await send(sim, [question, assistant])).toEqual({ status: 200 }); // no next message: nothing to answer yet
    expect(await send(sim, [question, assistant, { role: 'user', content: [toolResult('t1')] }])).toEqual({
      status: 400,
      message: expect.stringMatching(/^messages\.2: `tool_use` ids were found without `tool_result` blocks immediately after: t2\./),
    });
  });

  it('verifies thinking signatures: a valid one passes, a tampered one fails', async () => {
    const turn = (block: Record<string, unknown>): Message[] => [question, { role: 'assistant', content: [block, { type: 'text', text: 'Sunny.' }] }, { role: 'user', content: 'thanks' }];
    expect(await send(sim, turn(signedThinking('Need the weather.')))).toEqual({ status: 200 });
    const tampered = { ...signedThinking('Need the weather.'), thinking: 'Need the weather!' };
    expect(await send(sim, turn(tampered))).toEqual({ status: 400, message: 'messages.1.content.0: invalid signature in thinking block' });
    expect(await send(sim, turn({ type: 'redacted_thinking', data: 'opaque' }))).toEqual({ status: 200 });
  });

  it('with thinking enabled, requires the final assistant tool_use message to start with a thinking block', async () => {
    const loop = (first: Record<string, unknown>[]): Message[] => [
      question,
      { role: 'assistant', content: [...first, toolUse('t1')] },
      { role: 'user', content: [toolResult('t1')] },
    ];
    expect(await send(sim, loop([signedThinking('Need the weather.')]), THINKING)).toEqual({ status: 200 });
    expect(await send(sim, loop([{ type: 'redacted_thinking', data: 'opaque' }]), THINKING)).toEqual({ status: 200 });
    expect(await send(sim, loop([{ type: 'text', text: 'Checking.' }]), THINKING)).toEqual({
      status: 400,
      message: expect.stringMatching(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\./),
    });
    expect(await send(sim, loop([]))).toEqual({ status: 200 }); // thinking off: no such rule
  });

  it('records rejected requests too', async () => {
    sim.reset();
    await send(sim, [{ role: 'system', content: 'marker-rejected-f6' }]);
    expect(sim.requests().map((request) => [request.protocol, request.path])).toEqual([['anthropic', '/v1/messages']]);
  });
});
