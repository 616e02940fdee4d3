import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { GOOGLE_CLOUD_PLATFORM_SCOPE } from './clouds/cloud-tokens';
import { startGoogleTokenServer, type RunningGoogleTokenServer } from './clouds/google-token-server';
import { useGoogleLoopback, watchOutboundHosts } from './clouds/testing/cloud-test-env';
import { startSimulator, type RunningSimulator } from './simulator';

// AnthropicVertex moves the model into the URL (rawPredict / streamRawPredict), adds
// anthropic_version to the body and signs with google-auth-library's ADC: here the fake metadata
// server, issuing 2-second tokens so that every call must fetch a fresh one.
describe('@anthropic-ai/vertex-sdk against the simulator', () => {
  let sim: RunningSimulator;
  let tokens: RunningGoogleTokenServer;
  let restoreEnv: () => void;
  let outbound: ReturnType<typeof watchOutboundHosts>;
  let client: AnthropicVertex;
  const resource = '/v1/projects/sim-project/locations/us-east5/publishers/anthropic/models/claude-sim';

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    sim = await startSimulator();
    tokens = await startGoogleTokenServer({ projectId: 'sim-project', expiresInSeconds: 2 });
    restoreEnv = useGoogleLoopback(tokens.metadataHost);
    client = new AnthropicVertex({ region: 'us-east5', projectId: 'sim-project', baseURL: `${sim.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    restoreEnv();
    outbound.stop();
    await Promise.all([sim.close(), tokens.close()]);
  });
  beforeEach(() => sim.reset());

  it('creates a message through rawPredict with the model in the path and the Vertex version in the body', async () => {
    const message = await client.messages.create({ model: 'claude-sim', max_tokens: 100, messages: [{ role: 'user', content: 'Hello Vertex Claude' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'Simulated reply from claude-sim: Hello Vertex Claude', citations: null }]);
    expect(message.model).toBe('claude-sim');
    expect(message.stop_reason).toBe('end_turn');
    const [recorded] = sim.requests();
    expect([recorded?.protocol, recorded?.path]).toEqual(['vertex-anthropic', `${resource}:rawPredict`]);
    expect(recorded?.body).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 100, messages: [{ role: 'user', content: 'Hello Vertex Claude' }] });
  });

  it('streams through streamRawPredict', async () => {
    const stream = client.messages.stream({ model: 'claude-sim', max_tokens: 100, messages: [{ role: 'user', content: 'Stream Vertex Claude' }] });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Simulated reply from claude-sim: Stream Vertex Claude' }]);
    expect(final.stop_reason).toBe('end_turn');
    const [recorded] = sim.requests();
    expect([recorded?.protocol, recorded?.path]).toEqual(['vertex-anthropic', `${resource}:streamRawPredict`]);
    expect(recorded?.body).toEqual(expect.objectContaining({ anthropic_version: 'vertex-2023-10-16', stream: true }));
    expect(recorded?.body).not.toHaveProperty('model');
  });

  it('fetches a new token once the cached one is about to expire, and each call carries the token it was given', async () => {
    const before = tokens.issued().length;
    await client.messages.create({ model: 'claude-sim', max_tokens: 10, messages: [{ role: 'user', content: 'first' }] });
    await client.messages.create({ model: 'claude-sim', max_tokens: 10, messages: [{ role: 'user', content: 'second' }] });
    const fresh = tokens.issued().slice(before);
    expect(fresh.map((t) => [t.via, t.scopes])).toEqual([
      ['metadata', [GOOGLE_CLOUD_PLATFORM_SCOPE]],
      ['metadata', [GOOGLE_CLOUD_PLATFORM_SCOPE]],
    ]);
    expect(fresh[0]?.accessToken).not.toBe(fresh[1]?.accessToken);
    expect(sim.requests().map((r) => r.headers['authorization'])).toEqual(fresh.map((t) => `Bearer ${t.accessToken}`));
  });

  it('never leaves loopback', () => {
    expect(outbound.hosts()).toEqual([]);
  });
});
