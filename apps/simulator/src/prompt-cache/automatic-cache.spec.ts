import type { NeutralMessage, NeutralRequest } from '../reply-plan';
import { countInputTokens } from '../reply-limits';
import { applyAutomaticCache } from './automatic-cache';
import { PromptCacheStore } from './prompt-cache-store';
import type { CacheRetention } from './prompt-cache-types';

/** Text of exactly `tokens` simulator tokens (four characters each), distinct per seed. */
function text(tokens: number, seed: string): string {
  return `${seed}:`.padEnd(tokens * 4, '.');
}

function request(messages: NeutralMessage[], tools: NeutralRequest['tools'] = []): NeutralRequest {
  return { model: 'gpt-4o', messages, tools, toolChoice: 'auto', stream: false };
}

describe('OpenAI automatic prompt caching', () => {
  let now: number;
  let store: PromptCacheStore;
  const run = (req: NeutralRequest, options: { partition?: string; retention?: CacheRetention } = {}) =>
    applyAutomaticCache({ store, partition: options.partition ?? 'key|gpt-4o|', request: req, retention: options.retention ?? 'in_memory' });

  beforeEach(() => {
    now = 0;
    store = new PromptCacheStore(() => now);
  });

  it('caches nothing for a prompt under 1024 tokens, however often it is sent', () => {
    const short = request([{ role: 'system', text: text(1000, 'system') }, { role: 'user', text: text(23, 'q') }]);
    expect(countInputTokens(short.messages)).toBe(1023);
    expect([run(short), run(short)]).toEqual([0, 0]);
    expect(store.size()).toBe(0);
  });

  it('a repeated prompt reads its own prefix in whole 128-token increments', () => {
    const prompt = request([{ role: 'system', text: text(1400, 'system') }, { role: 'user', text: text(100, 'q') }]);
    expect(run(prompt)).toBe(0);
    expect(run(prompt)).toBe(1408); // 11 × 128 of 1500
  });

  it('a new turn reads the longest prefix it shares with the earlier prompt', () => {
    const system: NeutralMessage = { role: 'system', text: text(1100, 'system') };
    run(request([system, { role: 'user', text: text(200, 'first') }]));
    const next = request([system, { role: 'user', text: text(200, 'first') }, { role: 'assistant', text: text(50, 'answer') }, { role: 'user', text: text(30, 'second') }]);
    // 1,300 tokens shared (the assistant turn starts a new message), rounded down to 1,280.
    expect(run(next)).toBe(1280);
    const other = request([system, { role: 'user', text: text(200, 'changed') }]);
    // Only the system prompt's 1,100 tokens are shared: 1,024 of them, the least a read can be.
    expect(run(other)).toBe(1024);
  });

  it('a prompt sharing fewer than 1024 tokens with earlier ones reads nothing', () => {
    run(request([{ role: 'system', text: text(900, 'system') }, { role: 'user', text: text(400, 'one') }]));
    expect(run(request([{ role: 'system', text: text(900, 'system') }, { role: 'user', text: text(400, 'two') }]))).toBe(0);
  });

  it('the roles and the tools are part of the prefix', () => {
    const body = text(1300, 'same');
    run(request([{ role: 'user', text: body }]));
    expect(run(request([{ role: 'system', text: body }]))).toBe(0);
    expect(run(request([{ role: 'user', text: body }], [{ name: 'lookup', parameters: { type: 'object' } }]))).toBe(0);
    expect(run(request([{ role: 'user', text: body }]))).toBe(1280);
  });

  it('tool results count and hash like any text', () => {
    const call: NeutralMessage = { role: 'assistant', text: '', toolCallIds: ['call_1'] };
    const prompt = request([{ role: 'user', text: text(10, 'q') }, call, { role: 'tool', text: '', toolResults: [{ toolCallId: 'call_1', text: text(1200, 'result') }] }]);
    expect(run(prompt)).toBe(0);
    expect(run(prompt)).toBe(1152);
  });

  it('keeps partitions (credential, model, prompt_cache_key) apart', () => {
    const prompt = request([{ role: 'user', text: text(2000, 'long') }]);
    run(prompt, { partition: 'key|gpt-4o|session-a' });
    expect(run(prompt, { partition: 'key|gpt-4o|session-b' })).toBe(0);
    expect(run(prompt, { partition: 'key|gpt-4o|session-a' })).toBe(2000 - (2000 % 128));
  });

  it('forgets a prefix after five idle minutes; 24 h retention keeps it', () => {
    const prompt = request([{ role: 'user', text: text(1100, 'long') }]);
    run(prompt);
    now += 4 * 60_000;
    expect(run(prompt)).toBe(1024);
    now += 5 * 60_000;
    expect(run(prompt)).toBe(0);
    run(prompt, { retention: '24h' });
    now += 23 * 60 * 60_000;
    expect(run(prompt)).toBe(1024);
  });
});
