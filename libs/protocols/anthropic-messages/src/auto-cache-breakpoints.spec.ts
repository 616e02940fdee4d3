import { placeAutoBreakpoints } from './auto-cache-breakpoints';

const ephemeral = { type: 'ephemeral' };

describe('automatic prompt-cache breakpoints for Claude', () => {
  it('marks the system prompt and the last turn, leaving the client body it was given untouched', () => {
    const messages = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'done' }, { type: 'text', text: 'next' }] },
    ];
    const original = JSON.stringify(messages);
    const body: Record<string, unknown> = { system: 'You are an agent.', tools: [{ name: 'f', input_schema: { type: 'object' } }], messages };
    placeAutoBreakpoints(body);
    expect(body['system']).toEqual([{ type: 'text', text: 'You are an agent.', cache_control: ephemeral }]);
    expect(body['tools']).toEqual([{ name: 'f', input_schema: { type: 'object' } }]);
    expect((body['messages'] as { content: unknown }[]).at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'done' },
      { type: 'text', text: 'next', cache_control: ephemeral },
    ]);
    expect(JSON.stringify(messages)).toBe(original);
  });

  it('marks the last tool when there is no system prompt, and a plain string turn', () => {
    const body: Record<string, unknown> = { tools: [{ name: 'a' }, { name: 'b' }], messages: [{ role: 'user', content: 'hi' }] };
    placeAutoBreakpoints(body);
    expect(body['tools']).toEqual([{ name: 'a' }, { name: 'b', cache_control: ephemeral }]);
    expect(body['messages']).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: ephemeral }] }]);
  });

  it('never marks a thinking block, and marks the last block that may carry one', () => {
    const body: Record<string, unknown> = { messages: [{ role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'thinking', thinking: 't', signature: 's' }] }] };
    placeAutoBreakpoints(body);
    expect((body['messages'] as { content: unknown }[])[0]!.content).toEqual([{ type: 'text', text: 'a', cache_control: ephemeral }, { type: 'thinking', thinking: 't', signature: 's' }]);
  });

  it('leaves a body alone when the client placed any breakpoint of its own', () => {
    for (const body of [
      { system: [{ type: 'text', text: 's', cache_control: ephemeral }], messages: [{ role: 'user', content: 'hi' }] },
      { tools: [{ name: 'f', cache_control: ephemeral }], messages: [{ role: 'user', content: 'hi' }] },
      { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'r', cache_control: ephemeral }] }] }] },
      { cache_control: ephemeral, messages: [{ role: 'user', content: 'hi' }] },
    ]) {
      const before = JSON.stringify(body);
      placeAutoBreakpoints(body);
      expect(JSON.stringify(body)).toBe(before);
    }
  });
});
