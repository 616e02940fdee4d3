import { getBearerTokenProvider, ManagedIdentityCredential } from '@azure/identity';
import { AzureOpenAI, BadRequestError } from 'openai';
import { startAzureIdentityServer, type RunningAzureIdentityServer } from './clouds/azure-identity-server';
import { AZURE_COGNITIVE_SERVICES } from './clouds/cloud-tokens';
import { setEnv, watchOutboundHosts } from './clouds/testing/cloud-test-env';
import { startSimulator, type RunningSimulator } from './simulator';

const API_VERSION = '2024-10-21';
const SAFE = { filtered: false, severity: 'safe' };
const CHOICE_SAFE = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
const PROMPT_FILTER_RESULTS = [{ prompt_index: 0, content_filter_results: { ...CHOICE_SAFE, jailbreak: { filtered: false, detected: false } } }];

// openai's AzureOpenAI puts the deployment in the path with ?api-version and sends `api-key`, or a
// bearer token from azureADTokenProvider; Azure's extra fields reach the caller untouched.
describe('openai AzureOpenAI against the simulator', () => {
  let sim: RunningSimulator;
  let identity: RunningAzureIdentityServer;
  let outbound: ReturnType<typeof watchOutboundHosts>;
  let restoreEnv: () => void;
  let withKey: AzureOpenAI;

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    sim = await startSimulator();
    identity = await startAzureIdentityServer({ expiresInSeconds: 0.5 });
    // What App Service sets for a process with a managed identity; MSAL reads both.
    restoreEnv = setEnv({ IDENTITY_ENDPOINT: identity.identityEndpoint, IDENTITY_HEADER: identity.identityHeader, MSI_ENDPOINT: undefined, IMDS_ENDPOINT: undefined });
    withKey = new AzureOpenAI({ endpoint: sim.url, apiKey: 'azure-key', apiVersion: API_VERSION, maxRetries: 0 });
  });
  afterAll(async () => {
    restoreEnv();
    outbound.stop();
    await Promise.all([sim.close(), identity.close()]);
  });
  beforeEach(() => sim.reset());

  it('completes a chat on a deployment with api-key, with Azure content-filter verdicts', async () => {
    const completion = await withKey.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'Hello Azure' }] });
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: 'Simulated reply from gpt-4o-prod: Hello Azure', refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
        content_filter_results: CHOICE_SAFE,
      },
    ]);
    expect((completion as unknown as Record<string, unknown>)['prompt_filter_results']).toEqual(PROMPT_FILTER_RESULTS);
    const [recorded] = sim.requests();
    expect([recorded?.protocol, recorded?.path, recorded?.headers['api-key']]).toEqual([
      'azure-openai',
      `/openai/deployments/gpt-4o-prod/chat/completions?api-version=${API_VERSION}`,
      'azure-key',
    ]);
  });

  it('streams with the prompt verdict first, in a chunk without choices', async () => {
    const stream = await withKey.chat.completions.create({ model: 'gpt-4o-prod', stream: true, messages: [{ role: 'user', content: 'Stream Azure' }] });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]).toEqual({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: PROMPT_FILTER_RESULTS });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Simulated reply from gpt-4o-prod: Stream Azure');
    expect(chunks.at(-1)?.choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop', content_filter_results: {} });
  });

  it('ends a stream with finish_reason content_filter when scripted', async () => {
    sim.script({ match: 'filter-this', reply: { text: 'Partial answer', finish: 'content_filter' } });
    const stream = await withKey.chat.completions.create({ model: 'gpt-4o-prod', stream: true, messages: [{ role: 'user', content: 'please filter-this' }] });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Partial answer');
    expect(chunks.at(-1)?.choices[0]).toEqual({
      index: 0,
      delta: {},
      logprobs: null,
      finish_reason: 'content_filter',
      content_filter_results: { ...CHOICE_SAFE, violence: { filtered: true, severity: 'high' } },
    });
  });

  it('surfaces a scripted 400 content_filter refusal as a BadRequestError with the verdict', async () => {
    sim.script({ match: 'refuse-this', reply: { error: { status: 400, type: 'content_filter', message: 'The prompt was filtered.' } } });
    const failure = await withKey.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'refuse-this' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BadRequestError);
    const error = failure as BadRequestError;
    expect([error.status, error.code, error.param, error.type]).toEqual([400, 'content_filter', 'prompt', null]);
    expect(error.error).toEqual({
      message: 'The prompt was filtered.',
      type: null,
      param: 'prompt',
      code: 'content_filter',
      status: 400,
      innererror: {
        code: 'ResponsibleAIPolicyViolation',
        content_filter_result: { ...CHOICE_SAFE, violence: { filtered: true, severity: 'high' }, jailbreak: { filtered: false, detected: false } },
      },
    });
  });

  it('creates embeddings on a deployment', async () => {
    const response = await withKey.embeddings.create({ model: 'embed-prod', input: 'vector me' });
    expect(response.data).toHaveLength(1);
    expect(response.data[0]?.embedding).toHaveLength(1536);
    expect(response.model).toBe('embed-prod');
    expect(sim.requests()[0]?.path).toBe(`/openai/deployments/embed-prod/embeddings?api-version=${API_VERSION}`);
  });

  it('creates a response through the Responses API with api-version', async () => {
    const response = await withKey.responses.create({ model: 'gpt-4o-prod', input: 'Hello Responses' });
    expect([response.model, response.output_text]).toEqual(['gpt-4o-prod', 'Simulated reply from gpt-4o-prod: Hello Responses']);
    expect(sim.requests().map((r) => [r.protocol, r.path])).toEqual([['azure-openai', `/openai/responses?api-version=${API_VERSION}`]]);
  });

  // Half-second tokens fall inside the token cycler's one-second forced-refresh window, so the
  // library must fetch (and wait for) a new token on every call; longer ones refresh in the
  // background, which a test cannot order without waiting.
  it('authenticates with managed-identity tokens from IDENTITY_ENDPOINT, fetching a new one as each nears expiry', async () => {
    const credential = new ManagedIdentityCredential();
    const azureADTokenProvider = getBearerTokenProvider(credential, `${AZURE_COGNITIVE_SERVICES}/.default`);
    const client = new AzureOpenAI({ endpoint: sim.url, azureADTokenProvider, apiVersion: API_VERSION, maxRetries: 0 });
    const first = await client.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'first' }] });
    await client.chat.completions.create({ model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'second' }] });
    expect(first.choices[0]?.message.content).toBe('Simulated reply from gpt-4o-prod: first');
    const issued = identity.issued();
    expect(issued.map((token) => token.resource)).toEqual([AZURE_COGNITIVE_SERVICES, AZURE_COGNITIVE_SERVICES]);
    expect(issued[0]?.accessToken).not.toBe(issued[1]?.accessToken);
    expect(sim.requests().map((r) => [r.headers['authorization'], r.headers['api-key']])).toEqual(issued.map((t) => [`Bearer ${t.accessToken}`, undefined]));
  });

  it('never leaves loopback', () => {
    expect(outbound.hosts()).toEqual([]);
  });
});
