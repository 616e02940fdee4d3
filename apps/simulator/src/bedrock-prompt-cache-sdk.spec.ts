import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, InvokeModelCommand, type ContentBlock, type SystemContentBlock, type TokenUsage } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { simAwsStaticCredentials } from './clouds/aws-credentials';
import { useAwsLoopback, watchOutboundHosts } from './clouds/testing/cloud-test-env';
import { startSimulator, type RunningSimulator } from './simulator';

// Bedrock's prompt caching through the official AWS SDK, with no gateway between: cachePoint
// blocks on Converse and ConverseStream, Claude's cache_control through InvokeModel, usage with
// Bedrock's cache counters.
describe('the Bedrock prompt cache through @aws-sdk/client-bedrock-runtime', () => {
  const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
  /** 1,200 tokens under the simulator's estimate (four characters a token). */
  const LONG_SYSTEM = 'You are a careful coding agent. '.repeat(150);
  let sim: RunningSimulator;
  let restoreEnv: () => void;
  let outbound: ReturnType<typeof watchOutboundHosts>;
  let client: BedrockRuntimeClient;

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    restoreEnv = useAwsLoopback();
    sim = await startSimulator();
    client = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, credentials: simAwsStaticCredentials(), maxAttempts: 1, requestHandler: new NodeHttpHandler() });
  });
  afterAll(async () => {
    client.destroy();
    restoreEnv();
    await sim.close();
    outbound.stop();
    expect(outbound.hosts()).toEqual([]);
  });
  beforeEach(() => sim.reset());

  const system = (ttl?: '5m' | '1h'): SystemContentBlock[] => [{ text: LONG_SYSTEM }, { cachePoint: { type: 'default', ...(ttl ? { ttl } : {}) } }];
  const converse = (text: string, ttl?: '5m' | '1h') => client.send(new ConverseCommand({ modelId: MODEL, system: system(ttl), messages: [{ role: 'user', content: [{ text }] }], inferenceConfig: { maxTokens: 50 } }));

  it('Converse: the first call writes up to the cache point, the second reads it; totalTokens counts all', async () => {
    const first = await converse('Which files changed?');
    const second = await converse('Which files changed?');
    const prompt = 1200 + Math.ceil('Which files changed?'.length / 4);
    const uncached = prompt - 1200;
    expect(first.usage).toEqual({
      inputTokens: uncached,
      outputTokens: first.usage!.outputTokens,
      totalTokens: prompt + first.usage!.outputTokens!,
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 1200,
      cacheDetails: [{ ttl: '5m', inputTokens: 1200 }],
    });
    expect(second.usage).toEqual({ inputTokens: uncached, outputTokens: second.usage!.outputTokens, totalTokens: prompt + second.usage!.outputTokens!, cacheReadInputTokens: 1200, cacheWriteInputTokens: 0 });
  });

  it('Converse: a 1-hour cache point is reported under its TTL', async () => {
    expect((await converse('Long-lived', '1h')).usage?.cacheDetails).toEqual([{ ttl: '1h', inputTokens: 1200 }]);
  });

  it('ConverseStream: the metadata event carries the cache counters', async () => {
    await converse('Prime it');
    const streamed = await client.send(new ConverseStreamCommand({ modelId: MODEL, system: system(), messages: [{ role: 'user', content: [{ text: 'Then stream' }] }] }));
    let usage: TokenUsage | undefined;
    for await (const event of streamed.stream!) usage = event.metadata?.usage ?? usage;
    expect(usage).toEqual(expect.objectContaining({ cacheReadInputTokens: 1200, cacheWriteInputTokens: 0 }));
  });

  it('Converse: a conversation with a cache point at the end of each turn reads the turn before', async () => {
    const history: { role: 'user' | 'assistant'; content: ContentBlock[] }[] = [];
    const reads: number[] = [];
    for (let turn = 1; turn <= 4; turn += 1) {
      const question = { role: 'user' as const, content: [{ text: `Step ${turn}: change the next file.` }, { cachePoint: { type: 'default' as const } }] };
      const reply = await client.send(new ConverseCommand({ modelId: MODEL, system: [{ text: LONG_SYSTEM }], messages: [...history, question] }));
      reads.push(reply.usage!.cacheReadInputTokens!);
      history.push({ role: 'user', content: [{ text: `Step ${turn}: change the next file.` }] }, { role: 'assistant', content: reply.output!.message!.content! });
    }
    expect(reads[0]).toBe(0);
    expect(reads.slice(1).every((read, i) => read > 1200 && read > (reads[i] ?? 0))).toBe(true);
  });

  it('refuses a fifth cache point with a ValidationException', async () => {
    const point = { cachePoint: { type: 'default' as const } };
    const request = client.send(new ConverseCommand({ modelId: MODEL, system: [{ text: 'a' }, point, { text: 'b' }, point], messages: [{ role: 'user', content: [{ text: 'c' }, point, { text: 'd' }, point, { text: 'e' }, point] }] }));
    await expect(request).rejects.toMatchObject({ name: 'ValidationException', message: 'The model returned the following errors: A maximum of 4 blocks with cache_control may be provided. Found 5.' });
  });

  it("InvokeModel: Claude's cache_control, answered with Anthropic's usage and Bedrock's cache headers", async () => {
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 50, system: [{ type: 'text', text: LONG_SYSTEM, cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'Invoke me' }] });
    await client.send(new InvokeModelCommand({ modelId: MODEL, contentType: 'application/json', body }));
    const second = await client.send(new InvokeModelCommand({ modelId: MODEL, contentType: 'application/json', body }));
    const usage = (JSON.parse(Buffer.from(second.body).toString('utf8')) as { usage: Record<string, unknown> }).usage;
    expect(usage).toEqual(expect.objectContaining({ input_tokens: Math.ceil('Invoke me'.length / 4), cache_read_input_tokens: 1200, cache_creation_input_tokens: 0 }));
    // The recorder keeps the body as it arrived, markers included.
    expect(sim.requests().map((r) => r.body)).toEqual([JSON.parse(body), JSON.parse(body)]);
  });
});
