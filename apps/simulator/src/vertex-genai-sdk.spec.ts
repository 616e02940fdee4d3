import { GoogleGenAI } from '@google/genai';
import { GOOGLE_CLOUD_PLATFORM_SCOPE } from './clouds/cloud-tokens';
import { startGoogleTokenServer, type RunningGoogleTokenServer } from './clouds/google-token-server';
import { nodeFetch, useGoogleLoopback, watchOutboundHosts } from './clouds/testing/cloud-test-env';
import { startSimulator, type RunningSimulator } from './simulator';

// @google/genai with `vertexai: true` sends v1beta1 resource paths and takes its bearer token from
// google-auth-library's Application Default Credentials, here the fake GCE metadata server.
describe('@google/genai on Vertex AI against the simulator', () => {
  let sim: RunningSimulator;
  let tokens: RunningGoogleTokenServer;
  let restoreEnv: () => void;
  let outbound: ReturnType<typeof watchOutboundHosts>;
  let ai: GoogleGenAI;
  const resource = '/v1beta1/projects/sim-project/locations/global/publishers/google/models/gemini-sim';

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    sim = await startSimulator();
    tokens = await startGoogleTokenServer({ projectId: 'sim-project' });
    restoreEnv = useGoogleLoopback(tokens.metadataHost);
    // An explicit fetch, as in gemini-sdk.spec.ts: Jest's globalThis lacks undici's dispatcher.
    ai = new GoogleGenAI({ vertexai: true, project: 'sim-project', location: 'global', httpOptions: { baseUrl: sim.url, fetch: nodeFetch } });
  });
  afterAll(async () => {
    restoreEnv();
    outbound.stop();
    await Promise.all([sim.close(), tokens.close()]);
  });

  it('generates content with a metadata-server token, and caches that token for the next call', async () => {
    const response = await ai.models.generateContent({ model: 'gemini-sim', contents: 'Hello Vertex' });
    expect(response.text).toBe('Simulated reply from gemini-sim: Hello Vertex');
    expect(response.usageMetadata).toEqual({ promptTokenCount: 3, candidatesTokenCount: 6, totalTokenCount: 9 });
    await ai.models.generateContent({ model: 'gemini-sim', contents: 'Hello again' });

    const issued = tokens.issued();
    expect(issued).toEqual([{ via: 'metadata', subject: 'sim-vm@sim-project.iam.gserviceaccount.com', scopes: [GOOGLE_CLOUD_PLATFORM_SCOPE], accessToken: expect.stringMatching(/^ya29\.sim\./) }]);
    const recorded = sim.requests().slice(-2);
    expect(recorded.map((r) => [r.protocol, r.method, r.path, r.headers['authorization']])).toEqual([
      ['vertex-gemini', 'POST', `${resource}:generateContent`, `Bearer ${issued[0]?.accessToken}`],
      ['vertex-gemini', 'POST', `${resource}:generateContent`, `Bearer ${issued[0]?.accessToken}`],
    ]);
    expect(recorded[0]?.body).toEqual({ contents: [{ parts: [{ text: 'Hello Vertex' }], role: 'user' }] });
  });

  it('streams with alt=sse', async () => {
    const stream = await ai.models.generateContentStream({ model: 'gemini-sim', contents: 'Stream on Vertex' });
    let text = '';
    let finish: string | undefined;
    for await (const chunk of stream) {
      text += chunk.text ?? '';
      finish = chunk.candidates?.[0]?.finishReason ?? finish;
    }
    expect(text).toBe('Simulated reply from gemini-sim: Stream on Vertex');
    expect(finish).toBe('STOP');
    const recorded = sim.requests().at(-1);
    expect([recorded?.protocol, recorded?.path]).toEqual(['vertex-gemini', `${resource}:streamGenerateContent?alt=sse`]);
  });

  it('never leaves loopback', () => {
    expect(outbound.hosts()).toEqual([]);
  });
});
