import { simAwsStaticCredentials } from './clouds/aws-credentials';
import { readAll, signBedrockCall, splitFrames } from './clouds/testing/bedrock-wire';
import { startSimulator, type RunningSimulator } from './simulator';

// Claude through Bedrock's invoke operations on the wire: Anthropic's body with Bedrock's version
// and without model or stream, Anthropic's message back with Bedrock's token-count headers, and
// the stream as event-stream `chunk` frames each carrying one Anthropic event in base64.
describe('Claude through Bedrock invoke', () => {
  const MODEL = 'anthropic.claude-sonnet-4-20250514-v1:0';
  const INVOKE = `/model/${encodeURIComponent(MODEL)}/invoke`;
  const STREAM = `/model/${encodeURIComponent(MODEL)}/invoke-with-response-stream`;
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => sim.close());
  beforeEach(() => sim.reset());

  async function invoke(path: string, body: unknown): Promise<Response> {
    const text = JSON.stringify(body);
    const url = `${sim.url}${path}`;
    return fetch(url, { method: 'POST', headers: await signBedrockCall({ url, body: text, credentials: simAwsStaticCredentials('INVOKE') }), body: text });
  }

  const claude = (text: string, extra: Record<string, unknown> = {}) => ({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 2048, messages: [{ role: 'user', content: text }], ...extra });

  /** The Anthropic events inside the chunk frames, checking each frame is a padded `chunk` event. */
  function anthropicEvents(data: Uint8Array): Record<string, unknown>[] {
    return splitFrames(data).flatMap((frame) => {
      if (frame.headers[':message-type'] !== 'event') return [{ exception: frame.headers[':exception-type'], ...(JSON.parse(frame.payload) as object) }];
      expect([frame.headers[':event-type'], frame.headers[':content-type']]).toEqual(['chunk', 'application/json']);
      const { bytes, p } = JSON.parse(frame.payload) as { bytes: string; p: string };
      expect(p).toMatch(/^[A-Za-z0-9]+$/);
      return [JSON.parse(Buffer.from(bytes, 'base64').toString('utf8')) as Record<string, unknown>];
    });
  }

  it('answers Anthropic’s message, with Bedrock’s token counts in headers', async () => {
    sim.script({ match: 'marker-counts', reply: { text: 'Counted.', usage: { input: 21, output: 3 } } });
    const response = await invoke(INVOKE, claude('marker-counts'));
    expect([response.status, response.headers.get('x-amzn-bedrock-input-token-count'), response.headers.get('x-amzn-bedrock-output-token-count')]).toEqual([200, '21', '3']);
    expect(await response.json()).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, content: [{ type: 'text', text: 'Counted.' }], stop_reason: 'end_turn', usage: { input_tokens: 21, output_tokens: 3 } });
    expect(sim.requests().map((r) => [r.protocol, r.path, r.body])).toEqual([['bedrock-anthropic', INVOKE, claude('marker-counts')]]);
  });

  it('reports the prompt cache in the usage, the token-count headers and the stream\'s invocation metrics', async () => {
    const cached = claude('Cache me', { system: [{ type: 'text', text: 'Stay on task. '.repeat(300), cache_control: { type: 'ephemeral' } }] });
    const first = await invoke(INVOKE, cached);
    expect(['input', 'cache-read-input', 'cache-write-input'].map((name) => first.headers.get(`x-amzn-bedrock-${name}-token-count`))).toEqual(['2', '0', '1050']);
    expect(((await first.json()) as { usage: unknown }).usage).toMatchObject({ input_tokens: 2, cache_creation_input_tokens: 1050, cache_read_input_tokens: 0 });
    const streamed = anthropicEvents((await readAll(await invoke(STREAM, cached))).data);
    expect(streamed.at(-1)).toEqual({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 2, outputTokenCount: expect.any(Number), cacheReadInputTokenCount: 1050, cacheWriteInputTokenCount: 0, invocationLatency: 42, firstByteLatency: 21 } });
  });

  it.each<[string, string, unknown, string]>([
    ['no anthropic_version', INVOKE, { max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, 'Malformed input request: #/anthropic_version: required key [anthropic_version] not found, please reformat your input and try again.'],
    ['Vertex’s anthropic_version', INVOKE, claude('x', { anthropic_version: 'vertex-2023-10-16' }), 'Malformed input request: #/anthropic_version: "vertex-2023-10-16" is not a valid enum value, please reformat your input and try again.'],
    ['a model in the body', INVOKE, claude('x', { model: MODEL }), 'Malformed input request: #: extraneous key [model] is not permitted, please reformat your input and try again.'],
    ['stream in the body, even on the streaming operation', STREAM, claude('x', { stream: true }), 'Malformed input request: #: extraneous key [stream] is not permitted, please reformat your input and try again.'],
    ['a body the Messages API refuses (no max_tokens)', INVOKE, { anthropic_version: 'bedrock-2023-05-31', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Field required'],
  ])('refuses %s with a ValidationException', async (_case, path, body, message) => {
    const response = await invoke(path, body);
    expect([response.status, response.headers.get('x-amzn-errortype')?.split(':')[0], await response.json()]).toEqual([400, 'ValidationException', { message }]);
  });

  it('serves Claude only; other models take Converse', async () => {
    const response = await invoke(`/model/${encodeURIComponent('meta.llama3-70b-instruct-v1:0')}/invoke`, claude('x'));
    expect([response.status, await response.json()]).toEqual([400, { message: "The simulator's invoke surface serves Claude (anthropic.*) models; meta.llama3-70b-instruct-v1:0 takes Converse." }]);
  });

  it('streams Anthropic’s events in chunk frames, message_stop carrying Bedrock’s invocation metrics', async () => {
    sim.script({ match: 'marker-chunks', reply: { text: 'Two words.', usage: { input: 8, output: 2 } } });
    const response = await invoke(STREAM, claude('marker-chunks'));
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/vnd.amazon.eventstream']);
    const events = anthropicEvents((await readAll(response)).data);
    expect(events.map((event) => event['type'])).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events.filter((event) => event['type'] === 'content_block_delta').map((event) => event['delta'])).toEqual([{ type: 'text_delta', text: 'Two ' }, { type: 'text_delta', text: 'words.' }]);
    expect(events.at(-1)).toEqual({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 8, outputTokenCount: 2, invocationLatency: 42, firstByteLatency: 21 } });
  });

  it.each([
    [408, 'modelTimeoutException'],
    [429, 'throttlingException'],
  ])('a scripted %i mid-stream is the in-stream %s', async (status, exception) => {
    sim.script({ match: `marker-mid-${status}`, reply: { text: 'alpha beta gamma', streamErrorAfterChunks: 1, error: { status, message: `mid ${status}` } } });
    const { data, failed } = await readAll(await invoke(STREAM, claude(`marker-mid-${status}`)));
    const events = anthropicEvents(data);
    expect([failed, events.at(-1)]).toEqual([false, { exception, message: `mid ${status}` }]);
    expect(events.filter((event) => event['type'] === 'content_block_delta')).toHaveLength(1);
  });

  it.each([
    [404, 'ResourceNotFoundException'],
    [408, 'ModelTimeoutException'],
    [424, 'ModelErrorException'],
    [500, 'InternalServerException'],
  ])('a scripted %i before any byte is %s, on both operations', async (status, type) => {
    sim.script({ match: `marker-before-${status}`, reply: { error: { status, message: `before ${status}` } } });
    for (const path of [INVOKE, STREAM]) {
      const response = await invoke(path, claude(`marker-before-${status}`));
      expect([response.status, response.headers.get('x-amzn-errortype')?.split(':')[0], await response.json()]).toEqual([status, type, { message: `before ${status}` }]);
    }
  });

  it('dropConnectionAfterChunks cuts the stream after whole frames', async () => {
    sim.script({ match: 'marker-cut', reply: { text: 'one two three four', dropConnectionAfterChunks: 1 } });
    const { data, failed } = await readAll(await invoke(STREAM, claude('marker-cut')));
    expect([failed, anthropicEvents(data).map((event) => event['type'])]).toEqual([true, ['message_start', 'content_block_start', 'ping', 'content_block_delta']]);
  });
});
