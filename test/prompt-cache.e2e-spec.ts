import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

/**
 * Managed provider prompt caching (issue 29, ARCHITECTURE §9): an agent that speaks OpenAI's
 * dialect to Claude sets no breakpoints; with `prompt_cache: auto` the gateway places them, the
 * simulator's Anthropic prompt cache reads the conversation back each turn as Anthropic does, and
 * the ledger prices the reads and writes at the registry's cache prices.
 */
describe('provider prompt caching', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    gateway = await startGateway({
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      ANTHROPIC_BASE_URL: sim.url,
      ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-operator-000000000000',
      GEMINI_BASE_URL: sim.url,
      GEMINI_API_KEY: 'gemini-operator-key',
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
  });

  const CLAUDE = 'rosetta/claude-sonnet-4-5';

  /** A coding agent's standing instructions: long, and the same on every turn (about 4,000 tokens). */
  const SYSTEM = Array.from({ length: 80 }, (_, i) => `Rule ${i + 1}: read the file before changing it, keep edits small, run the tests, and explain each change in one sentence.`).join('\n');

  const TOOLS: ChatCompletionTool[] = ['read_file', 'edit_file', 'run_tests'].map((name) => ({
    type: 'function',
    function: { name, description: `The agent's ${name.replace('_', ' ')} tool.`, parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  }));

  /**
   * Claude Code's shape, recorded as a script: ten tool loops of a user ask, a tool call, a file's
   * contents as its result and the model's summary — twenty requests, each carrying the growing
   * history. The simulator answers each step the same way every time the session is replayed.
   */
  function scriptSession(): void {
    for (let step = 1; step <= 10; step++) {
      sim.script({ match: `Step ${step}: look at`, reply: { toolCalls: [{ id: `call_${step}`, name: 'read_file', arguments: { path: `src/module-${step}.ts` } }], finish: 'tool_calls' } });
      sim.script({ match: `contents of module ${step}`, reply: { text: `Module ${step} exports one function; it needs a null check before the loop.` } });
    }
  }

  /** Replays the session with a key; returns what the ledger charged for it, in all. */
  async function replay(key: { id: string; key: string }): Promise<{ usages: OpenAI.CompletionUsage[] }> {
    const client = new OpenAI({ apiKey: key.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: SYSTEM }];
    const usages: OpenAI.CompletionUsage[] = [];
    for (let step = 1; step <= 10; step++) {
      messages.push({ role: 'user', content: `Step ${step}: look at src/module-${step}.ts and tell me what it needs.` });
      const call = await client.chat.completions.create({ model: CLAUDE, max_tokens: 1024, messages, tools: TOOLS });
      usages.push(call.usage!);
      const toolCall = call.choices[0]!.message.tool_calls![0]!;
      messages.push(call.choices[0]!.message);
      const file = Array.from({ length: 30 }, (_, line) => `export const line${line} = compute(${step}, ${line}); // contents of module ${step}`).join('\n');
      messages.push({ role: 'tool', tool_call_id: toolCall.id, content: file });
      const summary = await client.chat.completions.create({ model: CLAUDE, max_tokens: 1024, messages, tools: TOOLS });
      usages.push(summary.usage!);
      messages.push(summary.choices[0]!.message);
    }
    return { usages };
  }

  async function ledger(keyId: string, rows: number) {
    for (let i = 0; ; i++) {
      const [found] = await query<{ n: number; cost: string; read: number; written: number; input: number }>(
        db.url,
        `SELECT count(*)::int AS n, coalesce(sum(cost_usd), 0)::text AS cost, coalesce(sum(cache_read_tokens), 0)::int AS read,
                coalesce(sum(cache_write_tokens), 0)::int AS written, coalesce(sum(input_tokens), 0)::int AS input
           FROM request_log WHERE api_key_id = $1`,
        [keyId],
      );
      if (found!.n >= rows || i >= 100) return { ...found!, cost: Number(found!.cost) };
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('cuts a 20-turn agent session in the OpenAI dialect against Claude to less than half its price with prompt_cache auto', async () => {
    scriptSession();
    const plain = await createKey(gateway, 'enterprise');
    const auto = await createKey(gateway, 'enterprise', { prompt_cache: 'auto' });

    const without = await replay(plain);
    expect(without.usages.every((u) => (u.prompt_tokens_details?.cached_tokens ?? 0) === 0)).toBe(true);
    const withCache = await replay(auto);
    // Every turn after the first reads the conversation so far back from the cache.
    expect(withCache.usages.slice(1).every((u) => u.prompt_tokens_details!.cached_tokens! > 0)).toBe(true);
    expect(withCache.usages.map((u) => u.prompt_tokens)).toEqual(without.usages.map((u) => u.prompt_tokens));

    const before = await ledger(plain.id, 20);
    const after = await ledger(auto.id, 20);
    expect(before).toMatchObject({ n: 20, read: 0, written: 0 });
    expect(after.n).toBe(20);
    expect(after.input).toBe(before.input);
    expect(after.read).toBeGreaterThan(after.input * 0.8);
    expect(after.written).toBeGreaterThan(0);
    expect(after.cost).toBeLessThan(before.cost / 2);

    // What Claude received: the gateway's two breakpoints, after the system prompt and after the last turn.
    const sent = sim.requests().filter((r) => r.protocol === 'anthropic').at(-1)!.body as { system: { cache_control?: unknown }[]; messages: { content: { cache_control?: unknown }[] }[] };
    expect(sent.system.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(sent.messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(2);

    // /admin/usage shows what the session read from the cache.
    const usage = await adminCall(gateway, 'GET', `/admin/usage?key_id=${auto.id}`);
    expect(usage.body.totals.cached_tokens).toBe(after.read);
  });

  it("keeps the client's own breakpoints (Anthropic's cache_control, or OpenAI-dialect cache_control on a part) and places none of its own", async () => {
    const auto = await createKey(gateway, 'enterprise', { prompt_cache: 'auto' });
    const client = new OpenAI({ apiKey: auto.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const marked = { type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral', ttl: '1h' } } as unknown as OpenAI.ChatCompletionContentPartText;
    await client.chat.completions.create({ model: CLAUDE, max_tokens: 100, messages: [{ role: 'system', content: [marked] }, { role: 'user', content: 'own breakpoint, please' }] });
    const sent = sim.requests().filter((r) => r.protocol === 'anthropic').at(-1)!.body as Record<string, unknown>;
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(1);
    expect((sent['system'] as { cache_control: unknown }[])[0]!.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
  });

  it('reports cached input in every dialect, and marks a forwarded Anthropic body too', async () => {
    const auto = await createKey(gateway, 'enterprise', { prompt_cache: 'auto' });
    const question = 'Summarise the rules in a word.';
    const anthropic = new Anthropic({ apiKey: auto.key, baseURL: gateway.url, maxRetries: 0 });
    const ask = () => anthropic.messages.create({ model: CLAUDE, max_tokens: 100, system: SYSTEM, messages: [{ role: 'user', content: question }] });
    const first = await ask();
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    const second = await ask();
    expect(second.usage.cache_read_input_tokens).toBeGreaterThan(0);

    const body = (dialect: string) => {
      if (dialect === 'gemini') return { systemInstruction: { parts: [{ text: SYSTEM }] }, contents: [{ role: 'user', parts: [{ text: question }] }] };
      if (dialect === 'responses') return { model: CLAUDE, instructions: SYSTEM, input: question };
      return { model: CLAUDE, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: question }] };
    };
    const paths: Record<string, string> = { openai: '/v1/chat/completions', responses: '/v1/responses', gemini: `/v1beta/models/${CLAUDE}:generateContent` };
    const cachedOf: Record<string, (json: any) => number> = {
      openai: (json) => json.usage.prompt_tokens_details.cached_tokens,
      responses: (json) => json.usage.input_tokens_details.cached_tokens,
      gemini: (json) => json.usageMetadata.cachedContentTokenCount,
    };
    for (const dialect of ['openai', 'responses', 'gemini']) {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${auto.key}`, 'x-goog-api-key': auto.key };
      const res = await fetch(`${gateway.url}${paths[dialect]}`, { method: 'POST', headers, body: JSON.stringify(body(dialect)) });
      expect(res.status).toBe(200);
      expect({ dialect, cached: cachedOf[dialect]!(await res.json()) > 0 }).toEqual({ dialect, cached: true });
    }
  });

  it("sends OpenAI the session's prompt_cache_key, the same on every turn of a conversation, unless the client set one", async () => {
    const auto = await createKey(gateway, 'enterprise', { prompt_cache: 'auto' });
    const anthropic = new Anthropic({ apiKey: auto.key, baseURL: gateway.url, maxRetries: 0 });
    const keys: unknown[] = [];
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'first turn of a cached conversation' }];
    for (let turn = 0; turn < 2; turn++) {
      const reply = await anthropic.messages.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 100, system: SYSTEM, messages: history });
      keys.push((sim.requests().filter((r) => r.protocol === 'openai').at(-1)!.body as Record<string, unknown>)['prompt_cache_key']);
      history.push({ role: 'assistant', content: reply.content }, { role: 'user', content: 'and the next turn' });
    }
    expect(typeof keys[0]).toBe('string');
    expect(keys[1]).toBe(keys[0]);

    const openai = new OpenAI({ apiKey: auto.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'rosetta/gpt-4o-mini', prompt_cache_key: 'my-own-session', messages: [{ role: 'user', content: 'keyed by the client' }] });
    expect((sim.requests().filter((r) => r.protocol === 'openai').at(-1)!.body as Record<string, unknown>)['prompt_cache_key']).toBe('my-own-session');

    const plain = await createKey(gateway, 'enterprise');
    const off = new Anthropic({ apiKey: plain.key, baseURL: gateway.url, maxRetries: 0 });
    await off.messages.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'no managed caching here' }] });
    expect((sim.requests().filter((r) => r.protocol === 'openai').at(-1)!.body as Record<string, unknown>)['prompt_cache_key']).toBeUndefined();
  });
});
