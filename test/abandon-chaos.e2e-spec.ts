import { dialectRequest, type Dialect } from './support/dialect-wire';
import { query } from './support/services';
import { addResponsesUpstream, RESPONSES_MODEL, startStack, type Stack } from './support/stack';

/**
 * Chaos for the ledger's charge (issue 26): clients killed at random points of their requests —
 * once the upstream has the request but before any byte came back, or after a random number of
 * streamed bytes — in every dialect against every upstream protocol. Whatever the point, the
 * request has exactly one ledger row, marked `client_disconnected`, charging at least its prompt
 * and never more output than the whole answer holds. A fixed seed keeps the run reproducible.
 */
const DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini', 'openai-responses'];
const MODELS = [
  { model: 'rosetta/gpt-4o-mini', upstream: 'gpt-4o-mini' },
  { model: 'rosetta/claude-haiku-4-5', upstream: 'claude-haiku-4-5' },
  { model: 'rosetta/gemini-2.5-flash', upstream: 'gemini-2.5-flash' },
  { model: RESPONSES_MODEL, upstream: 'gpt-5-codex' },
];
const CASES = 32;
const REPLY_WORDS = 120;
/** The reply is paced so that a stream is still running when its random byte count arrives. */
const PACING = { latencyMs: 400, tokensPerSecond: 200 };

/** mulberry32: a small seeded generator, so every run kills at the same points. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface KillCase {
  label: string;
  dialect: Dialect;
  model: (typeof MODELS)[number];
  stream: boolean;
  /** Bytes of the answer read before the client dies; 0: as soon as the upstream has the request. */
  afterBytes: number;
  marker: string;
}

function cases(): KillCase[] {
  const random = seeded(2626);
  return Array.from({ length: CASES }, (_, i) => {
    const dialect = DIALECTS[i % DIALECTS.length]!;
    const model = MODELS[Math.floor(i / DIALECTS.length) % MODELS.length]!;
    const stream = random() < 0.7;
    const afterBytes = stream && random() < 0.75 ? 1 + Math.floor(random() * 1_500) : 0;
    const marker = `kill-${i}-${Math.random().toString(36).slice(2, 8)}`;
    return { label: `${dialect}→${model.model} ${stream ? 'streamed' : 'whole'} killed after ${afterBytes} bytes`, dialect, model, stream, afterBytes, marker };
  });
}

describe('chaos: clients killed mid-request are charged what the upstream billed', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    await addResponsesUpstream(stack.gateway, stack.sim.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** Resolves once the simulator has received the request that carries `marker`. */
  async function upstreamHas(marker: string): Promise<void> {
    while (!stack.sim.requests().some((r) => JSON.stringify(r.body).includes(marker))) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Sends the case's request and kills it at its point; returns how many bytes of the answer arrived. */
  async function sendAndKill(c: KillCase): Promise<number> {
    const { url, init } = dialectRequest(stack.gateway.url, stack.key, { dialect: c.dialect, model: c.model.model, text: c.marker, stream: c.stream, headers: { 'x-request-id': c.marker } });
    const client = new AbortController();
    let received = 0;
    const exchange = (async () => {
      const res = await fetch(url, { ...init, signal: client.signal });
      for await (const chunk of res.body ?? []) {
        received += (chunk as Uint8Array).byteLength;
        if (c.afterBytes > 0 && received >= c.afterBytes) client.abort();
      }
    })().catch(() => undefined);
    if (c.afterBytes === 0) {
      await upstreamHas(c.marker);
      client.abort();
    }
    await exchange;
    return received;
  }

  /** The case's one ledger row, through the support lookup (which waits for the batch). */
  async function rowOf(marker: string): Promise<Record<string, any>> {
    const res = await fetch(`${stack.gateway.adminUrl}/admin/requests/${marker}`, { headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' } });
    return { ...((await res.json()) as Record<string, any>), lookup: res.status };
  }

  it('charges every killed request once, at least its prompt, never more output than the answer', async () => {
    const all = cases();
    for (const c of all) stack.sim.script({ match: c.marker, model: c.model.upstream, reply: { text: Array.from({ length: REPLY_WORDS }, (_, i) => `w${i}`).join(' '), ...PACING } });
    const observed: Record<string, unknown>[] = [];
    const wanted: Record<string, unknown>[] = [];
    for (const c of all) {
      await sendAndKill(c);
      const row = await rowOf(c.marker);
      const [{ n }] = await query<{ n: number }>(stack.db.url, 'SELECT count(*)::int AS n FROM request_log WHERE client_request_id = $1', [c.marker]) as [{ n: number }];
      observed.push({
        case: c.label,
        rows: n,
        lookup: row['lookup'],
        error_type: row['error_type'],
        chargesPrompt: row['input_tokens'] > 0 && Number(row['cost_usd']) > 0,
        outputWithinAnswer: row['output_tokens'] <= REPLY_WORDS * 2,
      });
      wanted.push({ case: c.label, rows: 1, lookup: 200, error_type: 'client_disconnected', chargesPrompt: true, outputWithinAnswer: true });
    }
    expect(observed).toEqual(wanted);
    // Both kinds of kill points were exercised.
    expect(all.some((c) => c.afterBytes === 0) && all.some((c) => c.afterBytes > 0)).toBe(true);
  });
});
