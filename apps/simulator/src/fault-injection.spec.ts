import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { GARBAGE_TEXT } from './fault-injection';
import { parseSimReply } from './parse-sim-reply';
import type { SimFault } from './reply-plan';
import { startSimulator, type RunningSimulator } from './simulator';

type Wire = 'openai' | 'anthropic' | 'gemini' | 'gemini-array';

/** One protocol request for `marker`, as its SDK would send it. */
function wireRequest(wire: Wire, marker: string, stream: boolean): { path: string; headers: Record<string, string>; body: unknown } {
  const json = { 'content-type': 'application/json' };
  switch (wire) {
    case 'openai':
      return { path: '/v1/chat/completions', headers: { ...json, authorization: 'Bearer sk-sim' }, body: { model: 'gpt-sim', stream, messages: [{ role: 'user', content: marker }] } };
    case 'anthropic':
      return {
        path: '/v1/messages',
        headers: { ...json, 'x-api-key': 'sk-ant-sim', 'anthropic-version': '2023-06-01' },
        body: { model: 'claude-sim', max_tokens: 100, stream, messages: [{ role: 'user', content: marker }] },
      };
    case 'gemini':
    case 'gemini-array': {
      const method = stream ? `streamGenerateContent${wire === 'gemini' ? '?alt=sse' : ''}` : 'generateContent';
      return { path: `/v1beta/models/gemini-sim:${method}`, headers: { ...json, 'x-goog-api-key': 'gk-sim' }, body: { contents: [{ role: 'user', parts: [{ text: marker }] }] } };
    }
  }
}

interface Outcome {
  status?: number;
  headers?: IncomingHttpHeaders;
  body: string;
  /** The response ended normally ('end' after the declared length, or the chunked terminator). */
  ended: boolean;
  /** How the connection failed, if it did (ECONNRESET, aborted, ...). */
  failure?: string;
  /** We gave up waiting: the stop condition held while the response was still open. */
  stoppedOpen: boolean;
}

interface SendOptions {
  /** Checked after every event; when true the client disconnects and the outcome is returned. */
  stopWhen?: (state: Outcome) => boolean;
  /** Resolves when the client should disconnect even without any response event (a hang). */
  stopOn?: Promise<void>;
}

/** A raw HTTP exchange, so what arrives on the wire (or does not) is visible byte for byte. */
function send(sim: RunningSimulator, wire: Wire, marker: string, stream: boolean, options: SendOptions = {}): Promise<Outcome> {
  const { path, headers, body } = wireRequest(wire, marker, stream);
  const state: Outcome = { body: '', ended: false, stoppedOpen: false };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      resolve(state);
    };
    const req = httpRequest(`${sim.url}${path}`, { method: 'POST', headers, agent: false });
    const check = (): void => {
      if (!options.stopWhen?.(state) || settled) return;
      state.stoppedOpen = !state.ended;
      req.destroy();
      finish();
    };
    req.on('response', (res) => {
      state.status = res.statusCode;
      state.headers = res.headers;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        state.body += chunk;
        check();
      });
      res.on('end', () => {
        state.ended = true;
        finish();
      });
      res.on('aborted', () => {
        state.failure ??= 'aborted';
      });
      res.on('error', (error: NodeJS.ErrnoException) => {
        state.failure ??= error.code ?? error.message;
        finish();
      });
      check();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      state.failure ??= error.code ?? error.message;
      finish();
    });
    req.on('close', finish);
    void options.stopOn?.then(() => {
      if (settled) return;
      state.stoppedOpen = true;
      req.destroy();
      finish();
    });
    req.end(JSON.stringify(body));
  });
}

/** Resolves once the simulator has recorded a request containing `marker` (polled, never slept). */
async function recorded(sim: RunningSimulator, marker: string): Promise<void> {
  while (!sim.requests().some((r) => JSON.stringify(r.body).includes(marker))) await new Promise((resolve) => setImmediate(resolve));
}

/** Content pieces seen so far in a streamed body, in any of the four framings. */
function contentPieces(wire: Wire, body: string): number {
  const patterns: Record<Wire, RegExp> = {
    openai: /"delta":\{"content":"/g,
    anthropic: /"type":"text_delta"/g,
    gemini: /"text":/g,
    'gemini-array': /"text":/g,
  };
  return body.match(patterns[wire])?.length ?? 0;
}

const WIRES: readonly Wire[] = ['openai', 'anthropic', 'gemini'];
const TEXT = 'one two three four five six';
let counter = 0;

describe('fault injection', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  const scripted = (fault: SimFault, text = TEXT): string => {
    const marker = `fault-${fault.kind}-${(counter += 1)}`;
    sim.script({ match: marker, reply: { text, fault } });
    return marker;
  };

  describe.each(WIRES)('%s', (wire) => {
    it.each([false, true])('hang (stream %s): the request is recorded and no header is ever sent', async (stream) => {
      const marker = scripted({ kind: 'hang' });
      const outcome = await send(sim, wire, marker, stream, { stopOn: recorded(sim, marker) });
      expect(outcome).toEqual({ body: '', ended: false, stoppedOpen: true });
    });

    it.each([false, true])('reset (stream %s): the connection is reset before any header', async (stream) => {
      const marker = scripted({ kind: 'reset' });
      const outcome = await send(sim, wire, marker, stream);
      expect(outcome).toEqual({ body: '', ended: false, stoppedOpen: false, failure: 'ECONNRESET' });
      expect(sim.requests().some((r) => JSON.stringify(r.body).includes(marker))).toBe(true);
    });

    it.each([false, true])('half-body (stream %s): declares the full length, sends half, then closes', async (stream) => {
      const marker = scripted({ kind: 'half-body' });
      const outcome = await send(sim, wire, marker, stream);
      expect(outcome.status).toBe(200);
      const declared = Number(outcome.headers?.['content-length']);
      expect(Buffer.byteLength(outcome.body)).toBe(Math.floor(declared / 2));
      expect(outcome.ended).toBe(false);
      expect(outcome.failure).toBeDefined();
    });

    it('garbage (not streamed): 200 with a JSON content type and a body that is not JSON', async () => {
      const marker = scripted({ kind: 'garbage' });
      const outcome = await send(sim, wire, marker, false);
      expect(outcome).toEqual(expect.objectContaining({ status: 200, body: GARBAGE_TEXT, ended: true }));
      expect(outcome.headers?.['content-type']).toBe('application/json');
      expect(() => JSON.parse(outcome.body) as unknown).toThrow();
    });

    it('garbage (streamed): a non-JSON data event after N content chunks, then the rest of the stream', async () => {
      const marker = scripted({ kind: 'garbage', afterChunks: 2 });
      const outcome = await send(sim, wire, marker, true);
      expect(outcome).toEqual(expect.objectContaining({ status: 200, ended: true }));
      const at = outcome.body.indexOf(GARBAGE_TEXT);
      expect(at).toBeGreaterThan(0);
      expect(contentPieces(wire, outcome.body.slice(0, at))).toBe(2);
      expect(outcome.body.slice(at - 'data: '.length, at)).toBe('data: ');
      expect(contentPieces(wire, outcome.body.slice(at))).toBe(TEXT.split(' ').length - 2);
    });

    it('stall (streamed): N content chunks, then the connection stays open with nothing more', async () => {
      const marker = scripted({ kind: 'stall', afterChunks: 2 });
      const outcome = await send(sim, wire, marker, true, { stopWhen: (state) => contentPieces(wire, state.body) >= 2 });
      expect(outcome).toEqual(expect.objectContaining({ status: 200, ended: false, stoppedOpen: true }));
      expect(contentPieces(wire, outcome.body)).toBe(2);
    });

    it('stall (not streamed): headers and half the declared body, then the connection stays open', async () => {
      const marker = scripted({ kind: 'stall' });
      const outcome = await send(sim, wire, marker, false, {
        stopWhen: (state) => Buffer.byteLength(state.body) >= Math.floor(Number(state.headers?.['content-length']) / 2),
      });
      expect(outcome).toEqual(expect.objectContaining({ status: 200, ended: false, stoppedOpen: true }));
    });
  });

  it('garbage in a Gemini JSON-array stream is a non-JSON element between valid ones', async () => {
    const marker = scripted({ kind: 'garbage', afterChunks: 1 });
    const outcome = await send(sim, 'gemini-array', marker, true);
    expect(outcome).toEqual(expect.objectContaining({ status: 200, ended: true }));
    expect(outcome.body.startsWith('[')).toBe(true);
    expect(outcome.body).toContain(`\n,\r\n${GARBAGE_TEXT}\n,\r\n`);
    expect(() => JSON.parse(outcome.body) as unknown).toThrow();
  });

  it('a stall at zero chunks still sends the opening frames (headers and stream start)', async () => {
    const marker = scripted({ kind: 'stall', afterChunks: 0 });
    const outcome = await send(sim, 'anthropic', marker, true, { stopWhen: (state) => state.body.includes('event: content_block_start') });
    expect(outcome).toEqual(expect.objectContaining({ status: 200, ended: false, stoppedOpen: true }));
    expect(outcome.body).toContain('event: message_start');
    expect(contentPieces('anthropic', outcome.body)).toBe(0);
  });
});

describe('parsing a fault', () => {
  it('reads each kind, with afterChunks where it applies', () => {
    expect(parseSimReply({ fault: { kind: 'hang' } })).toEqual({ fault: { kind: 'hang' } });
    expect(parseSimReply({ fault: { kind: 'stall', afterChunks: 3 } })).toEqual({ fault: { kind: 'stall', afterChunks: 3 } });
    expect(parseSimReply({ text: 'x', fault: { kind: 'garbage' } })).toEqual({ text: 'x', fault: { kind: 'garbage' } });
  });

  it.each([
    [{ fault: { kind: 'explode' } }, 'reply.fault.kind must be one of hang, reset, garbage, half-body, stall'],
    [{ fault: 'hang' }, 'reply.fault must be an object'],
    [{ fault: { kind: 'reset', afterChunks: 1 } }, 'reply.fault.afterChunks applies only to garbage and stall'],
    [{ fault: { kind: 'stall', afterChunks: -1 } }, 'reply.fault.afterChunks must be a non-negative integer'],
    [{ fault: { kind: 'hang', when: 1 } }, 'reply.fault.when is not a known field'],
    [{ fault: { kind: 'hang' }, error: { status: 500, message: 'x' } }, 'reply.fault cannot be combined with error'],
    [{ fault: { kind: 'stall' }, dropConnectionAfterChunks: 1 }, 'reply.fault cannot be combined with dropConnectionAfterChunks'],
  ])('rejects %j', (reply, message) => {
    expect(() => parseSimReply(reply)).toThrow(message);
  });
});
