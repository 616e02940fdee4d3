import { countInputTokens } from '../reply-limits';
import type { CacheSegment } from '../prompt-cache/prompt-cache-types';
import { readAnthropicCachePoints } from './anthropic-cache-points';
import { convertAnthropicRequest } from './anthropic-request';

const ephemeral = { type: 'ephemeral' };

/** A body with every kind of counted content: tools, system blocks, text, tool use and results. */
const agentTurn = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  tools: [{ name: 'read_file', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '1h' } }],
  system: [{ type: 'text', text: 'You are a coding agent.' }, { type: 'text', text: 'Be careful.', cache_control: ephemeral }],
  messages: [
    { role: 'user', content: 'Read the notes' },
    { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'text', text: 'One moment.' }, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.md' } }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'line one' }, { type: 'text', text: 'line two' }] },
        { type: 'text', text: 'Summarise them.', cache_control: ephemeral },
      ],
    },
  ],
};

function segmentsOf(body: unknown): CacheSegment[] {
  const points = readAnthropicCachePoints(body);
  if (!points.ok) throw new Error(points.message);
  return points.segments;
}

const charsOf = (segments: readonly CacheSegment[]): number => segments.reduce((sum, segment) => sum + segment.chars, 0);

describe('readAnthropicCachePoints', () => {
  it("counts the characters the request's input estimate counts, so cache and input tokens add up", () => {
    const request = convertAnthropicRequest(agentTurn, { requireMaxTokens: true });
    expect(Math.ceil(charsOf(segmentsOf(agentTurn)) / 4)).toBe(countInputTokens(request.neutral.messages));
    const plain = { model: 'm', max_tokens: 10, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] };
    expect(charsOf(segmentsOf(plain))).toBe('Be brief.'.length + 'Hello there'.length);
  });

  it('orders tools, system, the tool_choice and thinking settings, then message blocks, each marked where its cache_control is', () => {
    const segments = segmentsOf(agentTurn);
    expect(segments.map((segment) => [segment.identity.split(':')[0], segment.breakpoint ?? null])).toEqual([
      ['tool', '1h'],
      ['system', null],
      ['system', '5m'],
      ['settings', null],
      ['user', null],
      ['assistant', null],
      ['assistant', null],
      ['assistant', null],
      ['user', null],
      ['user', '5m'],
    ]);
    // The marker is not part of what is hashed: moving it does not change a block's identity.
    expect(segments[0]!.identity).toBe(`tool:${JSON.stringify({ name: 'read_file', input_schema: { type: 'object' } })}`);
  });

  it('a top-level cache_control marks the last block; a marker inside a tool_result marks the result', () => {
    const automatic = segmentsOf({ ...agentTurn, tools: [], system: 'x', cache_control: { type: 'ephemeral', ttl: '5m' }, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }] });
    expect(automatic.map((segment) => segment.breakpoint ?? null)).toEqual([null, null, null, null, '5m']);
    const nested = segmentsOf({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'ok', cache_control: ephemeral }] }] },
      ],
    });
    expect(nested.at(-1)!.breakpoint).toBe('5m');
  });

  it.each([
    ['five markers', { ...agentTurn, cache_control: ephemeral, messages: [...agentTurn.messages.slice(0, 2), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x', cache_control: ephemeral }, { type: 'text', text: 'y', cache_control: ephemeral }] }] }, 'A maximum of 4 blocks with cache_control may be provided. Found 5.'],
    ['a marker of another type', { ...agentTurn, tools: [{ name: 't', input_schema: {}, cache_control: { type: 'persistent' } }] }, "tools.0.cache_control: Input tag 'persistent' found using 'type' does not match any of the expected tags: 'ephemeral'"],
    ['an unknown TTL', { ...agentTurn, system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral', ttl: '10m' } }] }, "system.0.cache_control.ephemeral.ttl: Input should be '5m' or '1h'"],
    ['a marker that is not an object', { ...agentTurn, messages: [{ role: 'user', content: [{ type: 'text', text: 'q', cache_control: 'ephemeral' }] }] }, 'messages.0.content.0.cache_control: Input should be a valid dictionary'],
    [
      'a 1-hour marker after a 5-minute one',
      { ...agentTurn, tools: [{ name: 't', input_schema: {}, cache_control: ephemeral }], system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      "system.0.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
    ],
  ])('refuses %s as Anthropic does', (_name, body, message) => {
    expect(readAnthropicCachePoints(body)).toEqual({ ok: false, message });
  });
});
