import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { simAwsStaticCredentials } from './clouds/aws-credentials';
import { useAwsLoopback, watchOutboundHosts } from './clouds/testing/cloud-test-env';
import { startSimulator, type RunningSimulator } from './simulator';

// AnthropicBedrock moves the model into the URL (invoke / invoke-with-response-stream), takes
// `stream` out, adds Bedrock's anthropic_version and signs with SigV4 from the AWS chain: here the
// variables, read by the SDK's own default chain.
describe('@anthropic-ai/bedrock-sdk against the simulator', () => {
  const MODEL = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';
  let sim: RunningSimulator;
  let restoreEnv: () => void;
  let outbound: ReturnType<typeof watchOutboundHosts>;
  let client: AnthropicBedrock;

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    sim = await startSimulator();
    const keys = simAwsStaticCredentials('ANTHROPICSDK');
    restoreEnv = useAwsLoopback({ AWS_ACCESS_KEY_ID: keys.accessKeyId, AWS_SECRET_ACCESS_KEY: keys.secretAccessKey });
    client = new AnthropicBedrock({ awsRegion: 'eu-west-1', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(async () => {
    restoreEnv();
    await sim.close();
    outbound.stop();
    expect(outbound.hosts()).toEqual([]);
  });
  beforeEach(() => sim.reset());

  it('creates a message through invoke: the model in the path, Bedrock\'s version in the body and no model', async () => {
    const message = await client.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hello Bedrock Claude' }] });
    expect(message.content).toEqual([{ type: 'text', text: `Simulated reply from ${MODEL}: Hello Bedrock Claude`, citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
    const [recorded] = sim.requests();
    // This SDK leaves the ':' of the model id unescaped (the AWS SDK escapes it); both are signed and accepted.
    expect([recorded?.protocol, recorded?.path]).toEqual(['bedrock-anthropic', `/model/${MODEL}/invoke`]);
    expect(recorded?.body).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'Hello Bedrock Claude' }] });
    expect(recorded?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIASIMANTHROPICSDK\/\d{8}\/eu-west-1\/bedrock\/aws4_request/);
  });

  it('streams through invoke-with-response-stream, the SDK reading Anthropic events out of the event-stream chunks', async () => {
    sim.script({ match: 'stream please', reply: { text: 'Streamed from Bedrock.', usage: { input: 7, output: 4 } } });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'stream please' }] });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const final = await stream.finalMessage();
    expect([deltas.join(''), final.usage.output_tokens, final.stop_reason]).toEqual(['Streamed from Bedrock.', 4, 'end_turn']);
    const [recorded] = sim.requests();
    expect([recorded?.path, recorded?.body]).toEqual([`/model/${MODEL}/invoke-with-response-stream`, { anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'stream please' }] }]);
  });

  it('an exception inside the stream fails the SDK’s stream, naming it', async () => {
    sim.script({ match: 'throttle inside', reply: { text: 'one two three', streamErrorAfterChunks: 1, error: { status: 429, message: 'Too many tokens, please wait before trying again.' } } });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'throttle inside' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/throttlingException/);
  });

  it('a scripted throttle reaches the SDK as a 429', async () => {
    sim.script({ match: 'too fast', reply: { error: { status: 429, message: 'Too many requests, please wait before trying again.' } } });
    await expect(client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'too fast' }] })).rejects.toMatchObject({ status: 429 });
  });
});
