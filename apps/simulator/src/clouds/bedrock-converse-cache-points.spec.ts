import { countInputTokens } from '../reply-limits';
import { readConverseCachePoints } from './bedrock-converse-cache-points';
import { convertConverseRequest } from './bedrock-converse-request';

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const point = { cachePoint: { type: 'default' } };
const tool = { toolSpec: { name: 'read_file', inputSchema: { json: { type: 'object' } } } };

/** A body with every kind of counted content and a cache point in each place Bedrock takes one. */
const agentTurn = {
  toolConfig: { tools: [tool, point] },
  system: [{ text: 'You are a coding agent.' }, { text: '' }, { text: 'Be careful.' }, point],
  messages: [
    { role: 'user', content: [{ text: 'Read the notes' }] },
    { role: 'assistant', content: [{ text: 'Reading.' }, { text: 'One moment.' }, { toolUse: { toolUseId: 't1', name: 'read_file', input: { path: 'notes.md' } } }] },
    { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'line one' }, { json: { lines: 2 } }] } }, { text: 'Summarise them.' }, { cachePoint: { type: 'default', ttl: '5m' } }] },
  ],
};

describe('readConverseCachePoints', () => {
  it("counts the characters the request's input estimate counts, so cache and input tokens add up", () => {
    const points = readConverseCachePoints(agentTurn);
    if (!points.ok) throw new Error(points.message);
    const chars = points.segments.reduce((sum, segment) => sum + segment.chars, 0);
    expect(Math.ceil(chars / 4)).toBe(countInputTokens(convertConverseRequest(agentTurn, MODEL, false).messages));
  });

  it('a cache point marks the block before it: the last tool, the system prompt, the end of the turn', () => {
    const points = readConverseCachePoints(agentTurn);
    if (!points.ok) throw new Error(points.message);
    expect(points.segments.map((segment) => [segment.identity.split(':')[0], segment.breakpoint ?? null])).toEqual([
      ['tool', '5m'],
      ['system', null],
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
  });

  it.each([
    ['five cache points', { ...agentTurn, messages: [{ role: 'user', content: [{ text: 'a' }, point, { text: 'b' }, point, { text: 'c' }, point] }] }, 'The model returned the following errors: A maximum of 4 blocks with cache_control may be provided. Found 5.'],
    ['a cache point of another type', { messages: [{ role: 'user', content: [{ text: 'a' }, { cachePoint: { type: 'forever' } }] }] }, "1 validation error detected: Value 'forever' at 'messages.0.member.content.1.member.cachePoint.type' failed to satisfy constraint: Member must satisfy enum value set: [default]"],
    ['an unknown TTL', { system: [{ text: 's' }, { cachePoint: { type: 'default', ttl: '2h' } }], messages: [] }, "1 validation error detected: Value '2h' at 'system.1.member.cachePoint.ttl' failed to satisfy constraint: Member must satisfy enum value set: [5m, 1h]"],
    [
      'a 1-hour point after a 5-minute one',
      { system: [{ text: 's' }, point], messages: [{ role: 'user', content: [{ text: 'a' }, { cachePoint: { type: 'default', ttl: '1h' } }] }] },
      "The model returned the following errors: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
    ],
  ])('refuses %s', (_name, body, message) => {
    expect(readConverseCachePoints(body)).toEqual({ ok: false, message });
  });
});
