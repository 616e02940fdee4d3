import { simAwsStaticCredentials } from './clouds/aws-credentials';
import { readAll, signBedrockCall, splitFrames, type WireFrame } from './clouds/testing/bedrock-wire';
import type { SimReply } from './reply-plan';
import { thinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

// ConverseStream on the wire: AWS event-stream frames, each with its :event-type, JSON payloads
// padded with `p` as Bedrock pads them, exceptions as frames of their own, and the simulator's
// transport faults in this framing.
describe('Bedrock ConverseStream on the wire', () => {
  const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
  const PATH = `/model/${encodeURIComponent(MODEL)}/converse-stream`;
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => sim.close());
  beforeEach(() => sim.reset());

  async function stream(target: RunningSimulator, marker: string, signal?: AbortSignal, path = PATH): Promise<Response> {
    const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: marker }] }], toolConfig: { tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }] } });
    const url = `${target.url}${path}`;
    const headers = await signBedrockCall({ url, body, credentials: simAwsStaticCredentials('STREAM') });
    return fetch(url, { method: 'POST', headers, body, ...(signal ? { signal } : {}) });
  }

  /** Each frame as `[event type, payload without Bedrock's padding]`, checking the frame headers and the padding on the way. */
  function events(frames: WireFrame[]): [string, unknown][] {
    return frames.map((frame) => {
      if (frame.headers[':message-type'] === 'exception') {
        expect(frame.headers[':content-type']).toBe('application/json');
        return [`exception:${frame.headers[':exception-type']}`, JSON.parse(frame.payload)];
      }
      expect([frame.headers[':message-type'], frame.headers[':content-type']]).toEqual(['event', 'application/json']);
      const { p, ...payload } = JSON.parse(frame.payload) as Record<string, unknown>;
      expect(p).toMatch(/^[A-Za-z0-9]+$/);
      return [frame.headers[':event-type'] ?? '', payload];
    });
  }

  async function scripted(marker: string, reply: SimReply): Promise<{ response: Response; frames: WireFrame[]; failed: boolean; data: Uint8Array }> {
    sim.script({ match: marker, reply });
    const response = await stream(sim, marker);
    const { data, failed } = await readAll(response);
    return { response, frames: splitFrames(data), failed, data };
  }

  it('streams reasoning with its signature, text and a tool call in pieces, then the stop reason and the usage', async () => {
    const { response, frames, failed } = await scripted('marker-order', {
      thinking: { text: 'Need data.' },
      text: 'Looking up.',
      toolCalls: [{ id: 'tooluse_abc', name: 'lookup', arguments: { q: 'x' } }],
      usage: { input: 12, output: 9, cached: 2 },
    });
    expect([response.status, response.headers.get('content-type'), response.headers.get('x-amzn-requestid'), failed]).toEqual([200, 'application/vnd.amazon.eventstream', expect.any(String), false]);
    expect(events(frames)).toEqual([
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Need ' } } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'data.' } } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: thinkingSignature('bedrock-converse', 'Need data.') } } }],
      ['contentBlockStop', { contentBlockIndex: 0 }],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Looking ' } }],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'up.' } }],
      ['contentBlockStop', { contentBlockIndex: 1 }],
      ['contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_abc', name: 'lookup' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"q"' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: ':"x"' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '}' } } }],
      ['contentBlockStop', { contentBlockIndex: 2 }],
      ['messageStop', { stopReason: 'tool_use' }],
      ['metadata', { usage: { inputTokens: 10, outputTokens: 9, totalTokens: 21, cacheReadInputTokens: 2, cacheWriteInputTokens: 0 }, metrics: { latencyMs: 42 } }],
    ]);
  });

  it.each([
    [429, 'throttlingException'],
    [500, 'internalServerException'],
    [503, 'serviceUnavailableException'],
    [400, 'validationException'],
    [424, 'modelStreamErrorException'],
    // ConverseStream declares no modelTimeoutException (InvokeModelWithResponseStream does).
    [408, 'modelStreamErrorException'],
  ])('a scripted %i after one chunk is the in-stream %s, and the stream ends there', async (status, type) => {
    const { response, frames, failed } = await scripted(`marker-exc-${status}`, { text: 'one two three', streamErrorAfterChunks: 1, error: { status, message: `scripted ${status}` } });
    expect([response.status, failed]).toEqual([200, false]);
    expect(events(frames)).toEqual([
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'one ' } }],
      [`exception:${type}`, { message: `scripted ${status}` }],
    ]);
  });

  it('without a scripted error, a stream failure is modelStreamErrorException; a non-streamed call with both fails before any byte', async () => {
    const { frames } = await scripted('marker-exc-default', { text: 'one two', streamErrorAfterChunks: 0 });
    expect(events(frames).at(-1)).toEqual(['exception:modelStreamErrorException', { message: 'The model stream was interrupted; try the request again.' }]);
    sim.script({ match: 'marker-upfront', reply: { text: 'one two', streamErrorAfterChunks: 1, error: { status: 429, message: 'slow down' } } });
    const response = await stream(sim, 'marker-upfront', undefined, PATH.replace('converse-stream', 'converse'));
    expect([response.status, response.headers.get('x-amzn-errortype')?.split(':')[0], await response.json()]).toEqual([429, 'ThrottlingException', { message: 'slow down' }]);
  });

  it('a scripted error with no stream failure is an HTTP error before the stream, with retry-after', async () => {
    sim.script({ match: 'marker-before', reply: { error: { status: 503, message: 'busy', retryAfterSeconds: 3 } } });
    const response = await stream(sim, 'marker-before');
    expect([response.status, response.headers.get('x-amzn-errortype')?.split(':')[0], response.headers.get('retry-after'), await response.json()]).toEqual([503, 'ServiceUnavailableException', '3', { message: 'busy' }]);
  });

  it('dropConnectionAfterChunks cuts the connection after whole frames', async () => {
    const { frames, failed } = await scripted('marker-drop', { text: 'one two three four', dropConnectionAfterChunks: 2 });
    expect(failed).toBe(true);
    expect(events(frames).map(([type]) => type)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta']);
  });

  it('a garbage fault is one frame whose payload is not JSON, then the rest of the stream', async () => {
    const { frames, failed } = await scripted('marker-garbage', { text: 'one two three', fault: { kind: 'garbage', afterChunks: 1 } });
    expect(failed).toBe(false);
    expect(frames.map((frame) => frame.headers[':event-type'])).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);
    expect(() => JSON.parse(frames[2]!.payload) as unknown).toThrow();
    expect(frames[2]!.payload).toContain('502 Bad Gateway');
  });

  it('a half-body fault declares the whole stream’s length and closes halfway, mid-frame', async () => {
    const { response, frames, failed, data } = await scripted('marker-half', { text: 'one two three four five six', fault: { kind: 'half-body' } });
    const declared = Number(response.headers.get('content-length'));
    expect([failed, data.length]).toEqual([true, Math.floor(declared / 2)]);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.map((frame) => frame.headers[':event-type'])).not.toContain('metadata');
  });

  it('stops a paced stream when the client leaves, and close() still completes', async () => {
    const paced = await startSimulator({ tokensPerSecond: 5 });
    const controller = new AbortController();
    const response = await stream(paced, 'many words here to stream slowly', controller.signal);
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await expect(reader?.read()).rejects.toThrow();
    await paced.close();
    expect(paced.requests()).toHaveLength(1);
  });
});
