import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { SimReply } from '../apps/simulator/src';
import { callDialect, readAnswer, readErrorEnvelope, readStream, type Dialect, type RawExchange } from './support/dialect-wire';
import { query } from './support/services';
import { addResponsesUpstream, RESPONSES_MODEL, startStack, type Stack } from './support/stack';

/**
 * The chaos suite (issue 12): every upstream fault the simulator can produce, with and without a
 * fallback model, streamed and not, across client dialect × upstream protocol pairs. Per request:
 * it resolves, the outcome is right in the caller's dialect, and the ledger holds exactly one
 * row for it. Time-outs are shortened so silent upstreams cost seconds, not minutes.
 */
type Protocol = 'openai' | 'anthropic' | 'gemini' | 'openai-responses';

const DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini', 'openai-responses'];
const PROTOCOLS: readonly Protocol[] = ['openai', 'anthropic', 'gemini', 'openai-responses'];
/** The model each upstream protocol serves, and the fallback used for it (another protocol). */
const SERVED: Record<Protocol, { model: string; upstream: string; fallback: Protocol }> = {
  openai: { model: 'rosetta/gpt-4o-mini', upstream: 'gpt-4o-mini', fallback: 'anthropic' },
  anthropic: { model: 'rosetta/claude-haiku-4-5', upstream: 'claude-haiku-4-5', fallback: 'gemini' },
  gemini: { model: 'rosetta/gemini-2.5-flash', upstream: 'gemini-2.5-flash', fallback: 'openai-responses' },
  'openai-responses': { model: RESPONSES_MODEL, upstream: 'gpt-5-codex', fallback: 'openai' },
};
const TIMEOUTS = { UPSTREAM_CONNECT_TIMEOUT_MS: '1000', UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '2000', UPSTREAM_IDLE_TIMEOUT_MS: '1500', UPSTREAM_FALLBACK_FIRST_BYTE_MS: '1000' };
/** Far beyond any configured time-out (each ≤ 2 s, at most two tries per endpoint): only a hang reaches it. */
const HANG_GUARD_MS = 15_000;
const LONG_TEXT = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
/**
 * Mid-stream faults pace the content (50 ms a chunk) so the first chunks reach the gateway in
 * reads of their own, and the gateway has committed the stream before the fault arrives.
 */
const PACED = { tokensPerSecond: 20 };

type Expected = { outcome: 'fallback' } | { outcome: 'served'; text: string } | { outcome: 'error'; status: number; retryAfter?: string } | { outcome: 'in-stream-error' };

interface Scenario {
  name: string;
  /** What the primary upstream does; `refused` sends the request to a closed port instead. */
  primary: SimReply | 'refused';
  streams: readonly boolean[];
  expect(fallback: boolean): Expected;
}

const error = (status: number, retryAfter?: string): Expected => (retryAfter ? { outcome: 'error', status, retryAfter } : { outcome: 'error', status });
/** A fault before the first byte: the fallback serves, or the dialect's error envelope with `status`. */
const beforeFirstByte = (status: number, retryAfter?: string) => (fallback: boolean): Expected => (fallback ? { outcome: 'fallback' } : error(status, retryAfter));
/** A fault after the stream started: nothing can be taken back, fallback or not. */
const midStream = (): Expected => ({ outcome: 'in-stream-error' });
const BOTH = [false, true] as const;
const STREAMED = [true] as const;
const NOT_STREAMED = [false] as const;

const SCENARIOS: readonly Scenario[] = [
  { name: 'upstream 500', primary: { error: { status: 500, message: 'chaos: internal' } }, streams: BOTH, expect: beforeFirstByte(502) },
  { name: 'upstream 429 with retry-after', primary: { error: { status: 429, message: 'chaos: slow down', retryAfterSeconds: 1 } }, streams: BOTH, expect: beforeFirstByte(429, '1') },
  { name: 'connection refused', primary: 'refused', streams: BOTH, expect: beforeFirstByte(502) },
  { name: 'hang (no headers ever)', primary: { fault: { kind: 'hang' } }, streams: BOTH, expect: beforeFirstByte(504) },
  { name: 'reset before headers', primary: { fault: { kind: 'reset' } }, streams: BOTH, expect: beforeFirstByte(502) },
  { name: 'garbage body / garbage first event', primary: { fault: { kind: 'garbage' } }, streams: BOTH, expect: beforeFirstByte(502) },
  { name: 'garbage event mid-stream', primary: { ...PACED, fault: { kind: 'garbage', afterChunks: 2 } }, streams: STREAMED, expect: midStream },
  { name: 'half body (short content-length)', primary: { fault: { kind: 'half-body' } }, streams: NOT_STREAMED, expect: beforeFirstByte(502) },
  { name: 'half of a stream (short content-length)', primary: { fault: { kind: 'half-body' } }, streams: STREAMED, expect: midStream },
  { name: 'stall after headers and half the body', primary: { fault: { kind: 'stall' } }, streams: NOT_STREAMED, expect: beforeFirstByte(504) },
  { name: 'stall before the first chunk', primary: { fault: { kind: 'stall', afterChunks: 0 } }, streams: STREAMED, expect: beforeFirstByte(504) },
  { name: 'stall after 2 chunks', primary: { ...PACED, fault: { kind: 'stall', afterChunks: 2 } }, streams: STREAMED, expect: midStream },
  { name: 'trickle within the idle time-out', primary: { text: 'slow but steady', tokensPerSecond: 4 }, streams: STREAMED, expect: () => ({ outcome: 'served', text: 'slow but steady' }) },
  { name: 'trickle slower than the idle time-out', primary: { text: 'far too slow', tokensPerSecond: 0.25 }, streams: STREAMED, expect: beforeFirstByte(504) },
  { name: 'stream cut before any chunk / connection cut', primary: { dropConnectionAfterChunks: 0 }, streams: BOTH, expect: beforeFirstByte(502) },
  { name: 'stream cut after 2 chunks', primary: { ...PACED, dropConnectionAfterChunks: 2 }, streams: STREAMED, expect: midStream },
  { name: 'upstream in-stream error after 2 chunks', primary: { ...PACED, streamErrorAfterChunks: 2 }, streams: STREAMED, expect: midStream },
];

interface Case {
  label: string;
  scenario: Scenario;
  dialect: Dialect;
  protocol: Protocol;
  stream: boolean;
  fallback: boolean;
  marker: string;
}

/** Every variant of every scenario; consecutive cases rotate through the sixteen dialect × protocol pairs. */
function buildCases(): Case[][] {
  let index = 0;
  return SCENARIOS.map((scenario) =>
    scenario.streams.flatMap((stream) =>
      BOTH.map((fallback) => {
        const dialect = DIALECTS[index % DIALECTS.length]!;
        const protocol = PROTOCOLS[Math.floor(index / DIALECTS.length) % PROTOCOLS.length]!;
        index += 1;
        const label = `${dialect} → ${protocol}, ${stream ? 'streamed' : 'not streamed'}, ${fallback ? 'with' : 'without'} fallback`;
        return { label, scenario, dialect, protocol, stream, fallback, marker: `chaos-${index}-${Math.random().toString(36).slice(2, 8)}` };
      }),
    ),
  );
}

const CASES = buildCases();

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One provider per protocol on a closed port, each serving `rosetta/dead-<protocol>`. */
function deadProviders(port: number): string {
  const base: Record<Protocol, string> = { openai: `http://127.0.0.1:${port}/v1`, anthropic: `http://127.0.0.1:${port}`, gemini: `http://127.0.0.1:${port}`, 'openai-responses': `http://127.0.0.1:${port}/v1` };
  const providers = PROTOCOLS.map((protocol) => ({
    slug: `dead-${protocol}`,
    protocol,
    base_url: base[protocol],
    api_key_env: 'DEAD_UPSTREAM_KEY',
    endpoints: [{ model: `rosetta/dead-${protocol}`, upstream_model: `dead-${protocol}`, context_length: 100000, max_completion_tokens: 4000, pricing: { prompt: '0.000001', completion: '0.000002' } }],
  }));
  return JSON.stringify({ providers });
}

describe('chaos: upstream faults, with and without fallbacks, across dialects and protocols', () => {
  let stack: Stack;
  let dir: string;
  /** Every response's x-request-id, for the final exactly-one-row check. */
  const requestIds: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rosetta-chaos-'));
    const providersFile = join(dir, 'providers.json');
    writeFileSync(providersFile, deadProviders(await closedPort()));
    stack = await startStack({ ...TIMEOUTS, PROVIDERS_FILE: providersFile, DEAD_UPSTREAM_KEY: 'dead-key-000', CIRCUIT_BREAKER_FAILURES: '100000' });
    await addResponsesUpstream(stack.gateway, stack.sim.url);
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Rows the ledger holds for `requestId`, once at least one is there (polled: rows are written in batches). */
  async function ledgerRows(requestId: string): Promise<number> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [row] = await query<{ n: number }>(stack.db.url, 'SELECT count(*)::int AS n FROM request_log WHERE request_id = $1', [requestId]);
      if (row!.n > 0 || Date.now() > deadline) return row!.n;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  function send(c: Case, headers?: Record<string, string>): Promise<RawExchange> {
    const served = SERVED[c.protocol];
    const model = c.scenario.primary === 'refused' ? `rosetta/dead-${c.protocol}` : served.model;
    const fallbacks = c.fallback ? [SERVED[served.fallback].model] : undefined;
    // Every reply has text, so streams open a content block (Anthropic's content_block_start) as real ones do.
    if (c.scenario.primary !== 'refused') stack.sim.script({ match: c.marker, model: served.upstream, reply: { text: LONG_TEXT, ...c.scenario.primary } });
    return callDialect(stack.gateway.url, stack.key, { dialect: c.dialect, model, fallbacks, text: c.marker, stream: c.stream, headers }, HANG_GUARD_MS);
  }

  /** What happened, in the same words as the expectation when it is one of the expected outcomes. */
  function outcome(c: Case, raw: RawExchange): Record<string, unknown> {
    if (raw.failure) return { status: raw.status ?? 'no response', outcome: `${raw.failure}; received ${JSON.stringify(raw.body.slice(0, 300))}` };
    const status = raw.status!;
    const headers = raw.headers!;
    if (status !== 200) {
      const envelope = readErrorEnvelope(c.dialect, status, raw.body, headers.get('x-request-id'));
      if (typeof envelope === 'string') return { status, outcome: envelope };
      const retryAfter = headers.get('retry-after');
      return { status, outcome: 'error', type: envelope.type, ...(retryAfter ? { retryAfter } : {}) };
    }
    const servedBy = headers.get('x-rosetta-model');
    const attempts = Number(headers.get('x-rosetta-attempts'));
    const fallback = SERVED[SERVED[c.protocol].fallback];
    let text: string;
    if (c.stream) {
      const ending = readStream(c.dialect, raw.body);
      if (ending.kind === 'error' && !ending.afterFinish) return { status, outcome: 'in-stream-error' };
      if (ending.kind !== 'finished') return { status, outcome: `stream ${JSON.stringify(ending)}` };
      text = ending.text;
    } else {
      const answer = readAnswer(c.dialect, raw.body);
      if (!answer) return { status, outcome: `not a ${c.dialect} answer: ${raw.body.slice(0, 300)}` };
      text = answer.text;
    }
    if (servedBy === fallback.model && attempts >= 2 && text === `Simulated reply from ${fallback.upstream}: ${c.marker}`) return { status, outcome: 'fallback' };
    if (servedBy === SERVED[c.protocol].model) return { status, outcome: 'served', text };
    return { status, outcome: `served by ${servedBy} after ${attempts} attempt(s): ${JSON.stringify(text)}` };
  }

  function expected(c: Case): Record<string, unknown> {
    const want = c.scenario.expect(c.fallback);
    switch (want.outcome) {
      case 'error':
        return { status: want.status, outcome: 'error', type: 'upstream_error', ...(want.retryAfter ? { retryAfter: want.retryAfter } : {}) };
      case 'served':
        return { status: 200, outcome: 'served', text: want.text };
      default:
        return { status: 200, outcome: want.outcome };
    }
  }

  async function run(c: Case): Promise<{ observed: Record<string, unknown>; expected: Record<string, unknown> }> {
    const raw = await send(c);
    const requestId = raw.headers?.get('x-request-id');
    if (requestId) requestIds.push(requestId);
    const rows = requestId ? await ledgerRows(requestId) : 'no x-request-id';
    const observed = { case: c.label, ...outcome(c, raw), ledgerRows: rows };
    const want = { case: c.label, ...expected(c), ledgerRows: 1 };
    // A case that goes wrong shows what was received, so the failure report alone explains it.
    return { observed: isDeepStrictEqual(observed, want) ? observed : { ...observed, received: raw.body.slice(0, 400) }, expected: want };
  }

  it('covers every dialect × upstream protocol pair', () => {
    const pairs = new Set(CASES.flat().map((c) => `${c.dialect}→${c.protocol}`));
    expect(pairs.size).toBe(16);
  });

  it.each(SCENARIOS.map((scenario, i) => [scenario.name, CASES[i]!] as const))('%s', async (_name, cases) => {
    const results = await Promise.all(cases.map(run));
    expect(results.map((r) => r.observed)).toEqual(results.map((r) => r.expected));
  });

  it('a caller reusing one x-request-id still gets its own id and its own ledger row per request', async () => {
    const clientId = `chaos-dup-${Math.random().toString(36).slice(2, 10)}`;
    const reused = [...CASES[0]!, ...CASES[4]!].map((c) => ({ ...c, marker: `${c.marker}-dup` }));
    const ids = await Promise.all(reused.map(async (c) => (await send(c, { 'x-request-id': clientId })).headers?.get('x-request-id') ?? null));
    requestIds.push(...ids.filter((id): id is string => id !== null));
    expect(new Set(ids).size).toBe(reused.length);
    expect(ids).not.toContain(clientId);
    expect(await Promise.all(ids.map((id) => (id ? ledgerRows(id) : 0)))).toEqual(reused.map(() => 1));
    const [row] = await query<{ n: number }>(stack.db.url, 'SELECT count(*)::int AS n FROM request_log WHERE client_request_id = $1', [clientId]);
    expect(row!.n).toBe(reused.length);
  });

  it('after a graceful stop (every batch flushed), the ledger holds exactly one row per request', async () => {
    await stack.gateway.stop('SIGTERM');
    const rows = await query<{ request_id: string; n: number }>(stack.db.url, 'SELECT request_id, count(*)::int AS n FROM request_log WHERE request_id = ANY($1) GROUP BY request_id', [requestIds]);
    const counts = new Map(rows.map((row) => [row.request_id, row.n]));
    expect(requestIds.map((id) => [id, counts.get(id) ?? 0])).toEqual(requestIds.map((id) => [id, 1]));
  });
});
