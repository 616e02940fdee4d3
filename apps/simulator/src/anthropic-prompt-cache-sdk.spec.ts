import Anthropic from '@anthropic-ai/sdk';
import { startSimulator, type RunningSimulator } from './simulator';

// Prompt caching as the official SDK sees it, with no gateway between: breakpoints, reads and
// writes, the stream's message_start, the lifetimes on the simulator's clock, and a 20-turn agent
// session whose moving breakpoint reads the turn before.
describe('the Anthropic prompt cache through the official SDK', () => {
  const MODEL = 'claude-sim';
  /** 1,200 tokens under the simulator's estimate (four characters a token). */
  const LONG_SYSTEM = 'You are a careful coding agent. '.repeat(150);
  let now: number;
  let sim: RunningSimulator;
  let client: Anthropic;

  beforeAll(async () => {
    now = Date.UTC(2026, 0, 1);
    sim = await startSimulator({ clock: () => now });
    client = new Anthropic({ apiKey: 'sk-ant-cache', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => sim.reset());

  const cachedSystem = (ttl?: '5m' | '1h'): Anthropic.TextBlockParam[] => [{ type: 'text', text: LONG_SYSTEM, cache_control: ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' } }];
  const ask = (question: string, system = cachedSystem(), anthropic = client) =>
    anthropic.messages.create({ model: MODEL, max_tokens: 100, system, messages: [{ role: 'user', content: question }] });
  const promptTokens = async (question: string, system = cachedSystem()): Promise<number> =>
    (await client.messages.countTokens({ model: MODEL, system, messages: [{ role: 'user', content: question }] })).input_tokens;

  it('the first call writes the prefix up to the breakpoint and the second reads it; the three counts add up to the prompt', async () => {
    const first = await ask('What does the agent do?');
    const second = await ask('What does the agent do?');
    const total = await promptTokens('What does the agent do?');
    expect(first.usage).toEqual({
      input_tokens: total - 1200,
      output_tokens: first.usage.output_tokens,
      cache_creation_input_tokens: 1200,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 1200, ephemeral_1h_input_tokens: 0 },
      service_tier: 'standard',
    });
    expect(second.usage).toEqual(expect.objectContaining({ input_tokens: total - 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 1200 }));
  });

  it('reports the cache in the stream: message_start and the final message', async () => {
    await ask('Prime the cache');
    const stream = client.messages.stream({ model: MODEL, max_tokens: 100, system: cachedSystem(), messages: [{ role: 'user', content: 'Now stream' }] });
    let started: Anthropic.Usage | undefined;
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') started = { ...event.message.usage };
    });
    const final = await stream.finalMessage();
    expect(started).toEqual(expect.objectContaining({ cache_read_input_tokens: 1200, cache_creation_input_tokens: 0, input_tokens: (await promptTokens('Now stream')) - 1200 }));
    expect(final.usage.cache_read_input_tokens).toBe(1200);
  });

  it('no breakpoint, no cache: the same long prompt twice reports none', async () => {
    const system = [{ type: 'text' as const, text: LONG_SYSTEM }];
    await ask('Uncached', system);
    const again = await ask('Uncached', system);
    expect(again.usage).toEqual(expect.objectContaining({ input_tokens: await promptTokens('Uncached', system), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }));
  });

  it('another API key has a cache of its own', async () => {
    await ask('Whose cache?');
    const other = new Anthropic({ apiKey: 'sk-ant-someone-else', baseURL: sim.url, maxRetries: 0 });
    expect((await ask('Whose cache?', cachedSystem(), other)).usage.cache_read_input_tokens).toBe(0);
  });

  it('an entry lives five minutes from its last read; a 1-hour breakpoint lasts the hour', async () => {
    await ask('Timing');
    now += 4 * 60_000;
    expect((await ask('Timing')).usage.cache_read_input_tokens).toBe(1200);
    now += 5 * 60_000 + 1;
    expect((await ask('Timing')).usage).toEqual(expect.objectContaining({ cache_read_input_tokens: 0, cache_creation_input_tokens: 1200 }));
    sim.clearPromptCaches();
    const hour = await ask('Timing', cachedSystem('1h'));
    expect(hour.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1200 });
    now += 50 * 60_000;
    expect((await ask('Timing', cachedSystem('1h'))).usage.cache_read_input_tokens).toBe(1200);
  });

  it('refuses a fifth breakpoint with Anthropic\'s 400', async () => {
    const marked = (text: string): Anthropic.TextBlockParam => ({ type: 'text', text, cache_control: { type: 'ephemeral' } });
    const request = client.messages.create({ model: MODEL, max_tokens: 10, system: [marked('a'), marked('b'), marked('c')], messages: [{ role: 'user', content: [marked('d'), marked('e')] }] });
    await expect(request).rejects.toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error', message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' } } });
  });

  it('a 20-turn agent session with its breakpoint on the last block reads each previous turn', async () => {
    const messages: Anthropic.MessageParam[] = [];
    const turns: Anthropic.Usage[] = [];
    for (let turn = 1; turn <= 20; turn += 1) {
      // Like Claude Code: only the newest block carries the marker; earlier turns are sent unmarked.
      const history = messages.map((message) => ({ ...message, content: typeof message.content === 'string' ? message.content : message.content.map(({ ...block }) => ({ ...block, cache_control: undefined })) }));
      const question: Anthropic.MessageParam = { role: 'user', content: [{ type: 'text', text: `Step ${turn}: edit the next file and report what changed in it.`, cache_control: { type: 'ephemeral' } }] };
      const reply = await client.messages.create({ model: MODEL, max_tokens: 200, system: cachedSystem(), messages: [...history, question] });
      turns.push(reply.usage);
      messages.push(question, { role: 'assistant', content: reply.content.map((block) => (block.type === 'text' ? { type: 'text' as const, text: block.text } : block)) });
    }
    const prompt = (usage: Anthropic.Usage): number => usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
    expect(turns[0]).toEqual(expect.objectContaining({ cache_read_input_tokens: 0, cache_creation_input_tokens: prompt(turns[0]!) }));
    for (let i = 1; i < turns.length; i += 1) {
      // Everything the turn before sent is read back; only the new assistant reply and question are written.
      expect([i, turns[i]!.cache_read_input_tokens]).toEqual([i, prompt(turns[i - 1]!)]);
      expect(turns[i]!.cache_creation_input_tokens).toBe(prompt(turns[i]!) - prompt(turns[i - 1]!));
    }
    const read = turns.reduce((sum, usage) => sum + (usage.cache_read_input_tokens ?? 0), 0);
    const sent = turns.reduce((sum, usage) => sum + prompt(usage), 0);
    expect(read / sent).toBeGreaterThan(0.9);
  });

  it('the control API counts and clears the cache; reset clears it too', async () => {
    await ask('Control');
    const count = async (): Promise<unknown> => (await fetch(`${sim.url}/_sim/prompt-cache`)).json();
    expect(await count()).toEqual({ entries: 1 });
    expect((await fetch(`${sim.url}/_sim/prompt-cache`, { method: 'DELETE' })).status).toBe(200);
    expect(await count()).toEqual({ entries: 0 });
    expect((await ask('Control')).usage.cache_read_input_tokens).toBe(0);
    await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
    expect(await count()).toEqual({ entries: 0 });
  });
});
