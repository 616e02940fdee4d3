import { startSimulator, type RunningSimulator } from './simulator';

const AUTH = { authorization: 'Bearer sk-sim-test', 'content-type': 'application/json' };

async function chat(sim: RunningSimulator, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: AUTH, body: JSON.stringify({ stream: true, ...body }) });
}

/** Splits an SSE body into the payloads of its `data:` frames; any other line fails the test. */
function dataFrames(text: string): string[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      expect(frame.includes('\n')).toBe(false);
      return frame.slice('data: '.length);
    });
}

interface Chunk {
  id: string;
  object: string;
  choices: Array<{ index: number; delta: Record<string, unknown>; logprobs: null; finish_reason: string | null }>;
  usage: unknown;
}

function chunksOf(frames: string[]): Chunk[] {
  return frames.filter((frame) => frame !== '[DONE]').map((frame) => JSON.parse(frame) as Chunk);
}

function envelope(choices: unknown[], usage: unknown = null): Record<string, unknown> {
  return {
    id: expect.stringMatching(/^chatcmpl-sim-/),
    object: 'chat.completion.chunk',
    created: expect.any(Number),
    model: 'gpt-4o',
    system_fingerprint: expect.any(String),
    choices,
    usage,
  };
}

function choice(delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return { index: 0, delta, logprobs: null, finish_reason: finishReason };
}

describe('OpenAI chat completions (streaming)', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('streams role, one token per chunk, finish, usage and [DONE] in order', async () => {
    const response = await chat(sim, {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi there' }],
      stream_options: { include_usage: true },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = dataFrames(await response.text());
    expect(frames[frames.length - 1]).toBe('[DONE]');
    const chunks = chunksOf(frames);
    expect(chunks).toEqual([
      envelope([choice({ role: 'assistant', content: '', refusal: null })]),
      ...['Simulated ', 'reply ', 'from ', 'gpt-4o: ', 'Hi ', 'there'].map((token) => envelope([choice({ content: token })])),
      envelope([choice({}, 'stop')]),
      envelope([], {
        prompt_tokens: 2,
        completion_tokens: 6,
        total_tokens: 8,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      }),
    ]);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  it('omits the usage chunk without include_usage and streams reasoning before content', async () => {
    const directive = JSON.stringify({ thinking: { text: 'hmm ok' }, text: 'Done.' });
    const response = await chat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: `<sim>${directive}</sim>` }] });
    const chunks = chunksOf(dataFrames(await response.text()));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { reasoning_content: 'hmm ' },
      { reasoning_content: 'ok' },
      { content: 'Done.' },
      {},
    ]);
    expect(chunks.every((chunk) => chunk.usage === null && chunk.choices.length === 1)).toBe(true);
  });

  it('streams a required tool call as id/type/name first, then argument fragments forming valid JSON', async () => {
    const response = await chat(sim, {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'object', properties: { c: { type: 'boolean' } } } } },
          },
        },
      ],
      tool_choice: 'required',
    });
    const chunks = chunksOf(dataFrames(await response.text()));
    const toolDeltas = chunks.flatMap((chunk) => (chunk.choices[0]?.delta['tool_calls'] as unknown[] | undefined) ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: expect.stringMatching(/^call_/),
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    const fragments = toolDeltas.slice(1) as Array<{ index: number; function: { arguments: string } }>;
    expect(fragments.length).toBeGreaterThanOrEqual(2);
    for (const fragment of fragments) expect(Object.keys(fragment).sort()).toEqual(['function', 'index']);
    const joined = fragments.map((fragment) => fragment.function.arguments).join('');
    expect(JSON.parse(joined)).toEqual({ city: 'example', units: { c: true } });
    expect(chunks[chunks.length - 1]?.choices[0]).toEqual(choice({}, 'tool_calls'));
  });

  it('groups chunkTokens tokens per content chunk', async () => {
    const grouped = await startSimulator({ chunkTokens: 3 });
    try {
      const response = await chat(grouped, { model: 'gpt-4o', messages: [{ role: 'user', content: 'a b c d' }] });
      const contents = chunksOf(dataFrames(await response.text())).map((chunk) => chunk.choices[0]?.delta['content']);
      expect(contents).toEqual(['', 'Simulated reply from ', 'gpt-4o: a b ', 'c d', undefined]);
    } finally {
      await grouped.close();
    }
  });

  it('writes an in-stream error after N content chunks and ends the stream', async () => {
    sim.script({ match: 'marker-stream-err-4d', reply: { text: 'one two three four', streamErrorAfterChunks: 2 } });
    const response = await chat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'marker-stream-err-4d' }] });
    expect(response.status).toBe(200);
    const frames = dataFrames(await response.text());
    expect(frames).toHaveLength(4);
    expect(chunksOf(frames.slice(0, 3)).map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: 'one ' },
      { content: 'two ' },
    ]);
    expect(JSON.parse(frames[3] ?? '')).toEqual({
      error: { message: expect.any(String), type: 'server_error', param: null, code: null },
    });
  });

  it('destroys the connection mid-stream after N content chunks', async () => {
    sim.script({ match: 'marker-drop-8e', reply: { text: 'one two three four', dropConnectionAfterChunks: 1 } });
    const response = await chat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'marker-drop-8e' }] });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    let received = '';
    const readAll = async (): Promise<void> => {
      for (let result = await reader.read(); !result.done; result = await reader.read()) {
        received += decoder.decode(result.value, { stream: true });
      }
    };
    await expect(readAll()).rejects.toThrow();
    expect(chunksOf(dataFrames(received)).map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: 'one ' },
    ]);
  });

  it('returns a planned error as an HTTP status before any stream starts', async () => {
    sim.script({ match: 'marker-503-x', reply: { error: { status: 503, message: 'overloaded', retryAfterSeconds: 2 } } });
    const response = await chat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'marker-503-x' }] });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({ error: { message: 'overloaded', type: 'server_error', param: null, code: null } });
  });

  it('delivers a long stream intact through socket back-pressure', async () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `w${i}`).join(' ');
    sim.script({ match: 'marker-long-9b', reply: { text: words } });
    const response = await chat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'marker-long-9b' }] });
    const contents = chunksOf(dataFrames(await response.text())).map((chunk) => chunk.choices[0]?.delta['content'] ?? '');
    expect(contents).toHaveLength(5_002);
    expect(contents.join('')).toBe(words);
  });

  it('paces chunks with tokensPerSecond so each content chunk arrives separately', async () => {
    const paced = await startSimulator({ tokensPerSecond: 25 });
    try {
      const response = await chat(paced, { model: 'gpt-4o', messages: [{ role: 'user', content: 'a b c' }] });
      const reader = response.body?.getReader();
      if (!reader) throw new Error('no body');
      const decoder = new TextDecoder();
      const reads: string[] = [];
      for (let result = await reader.read(); !result.done; result = await reader.read()) {
        reads.push(decoder.decode(result.value, { stream: true }));
      }
      const contentPerRead = reads.map((text) => (text.match(/"content":"[^"]+"/g) ?? []).length);
      expect(contentPerRead.every((count) => count <= 1)).toBe(true);
      expect(contentPerRead.filter((count) => count === 1)).toHaveLength(7);
      expect(dataFrames(reads.join('')).slice(-1)).toEqual(['[DONE]']);
    } finally {
      await paced.close();
    }
  });

  it('stops a paced stream when the client disconnects, and close() still completes', async () => {
    const paced = await startSimulator({ tokensPerSecond: 5 });
    const controller = new AbortController();
    const response = await fetch(`${paced.url}/v1/chat/completions`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'many words here to stream slowly' }] }),
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await expect(reader?.read()).rejects.toThrow();
    await paced.close();
    expect(paced.requests()).toHaveLength(1);
  });
});
