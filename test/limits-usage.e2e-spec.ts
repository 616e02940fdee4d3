import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { freeKeyGetsExactly100, tokenLimitHolds } from './support/exactness-checks';
import { createTestDatabase, query, startPrivateRedis, TEST_REDIS_URL } from './support/services';

const OPENAI_PRICE = { prompt: 0.15e-6, completion: 0.6e-6 };

/** Two replicas behind an imaginary ingress, sharing the real PostgreSQL and Redis. */
describe('plan limits across replicas, and the usage ledger', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let a: GatewayProcess;
  let b: GatewayProcess;
  const others: GatewayProcess[] = [];

  const env = () => ({ DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' });

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    a = await startGateway(env());
    b = await startGateway(env());
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), ...others.map((g) => g.stop())]);
    await sim?.close();
    await db?.drop();
  });

  const ask = (gateway: GatewayProcess, key: string, body: Record<string, unknown> = {}) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...body }),
    });

  it('a Free key sending 130 tiny concurrent requests (no max_tokens) across two replicas gets exactly 100 through', async () => {
    const responses = await freeKeyGetsExactly100({ a, b, sim, db });
    const ok = responses.filter((r) => r.status === 200);
    for (const r of responses.filter((r) => r.status === 429)) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get('retry-after-ms'))).toBeGreaterThan(0);
      expect(r.headers.get('x-ratelimit-limit-requests')).toBe('100');
      expect(r.headers.get('x-ratelimit-remaining-requests')).toBe('0');
      const body = (await r.json()) as any;
      expect(body.error.type).toBe('rate_limit_error');
    }
    for (const r of ok) {
      for (const h of ['limit-requests', 'reset-requests', 'limit-tokens', 'remaining-tokens', 'reset-tokens']) expect(r.headers.get(`x-ratelimit-${h}`)).not.toBeNull();
    }
  });

  it('an agent-shaped sequence (2k-token prompts, max_tokens 32,000, two at a time) on a Pro key gets no 429', async () => {
    const { key } = await createKey(a, 'pro');
    const prompt = Array.from({ length: 2_000 }, (_, i) => `w${i % 97}`).join(' ');
    const statuses: number[] = [];
    for (let round = 0; round < 15; round++) {
      const pair = await Promise.all([a, b].map((g) => ask(g, key, { max_tokens: 32_000, messages: [{ role: 'user', content: `${prompt} step ${round}` }] })));
      for (const r of pair) {
        statuses.push(r.status);
        if (r.status !== 200) throw new Error(`round ${round}: ${r.status} ${await r.text()}`);
      }
    }
    expect(statuses).toEqual(Array.from({ length: 30 }, () => 200));
  });

  it('a token budget holds across replicas, and settlement returns unused reservations', async () => {
    await tokenLimitHolds({ a, b, sim, db });
  });

  it('a plan change made through one replica applies on the other', async () => {
    expect((await adminCall(a, 'PUT', '/admin/plans/tiny', { rpm: 2, tpm: null })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 300));
    const { key } = await createKey(b, 'tiny');
    expect([(await ask(b, key)).status, (await ask(b, key)).status, (await ask(b, key)).status]).toEqual([200, 200, 429]);
    expect((await adminCall(a, 'PUT', '/admin/plans/tiny', { rpm: 5, tpm: null })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await ask(b, key)).status).toBe(200);
  });

  it('GET /metrics shows this replica\'s requests, tokens, cost, refusals and circuits, behind the admin token', async () => {
    const c = await startGateway(env());
    others.push(c);
    const { key } = await createKey(c, 'enterprise', { rpm: 2 });
    const plain = (await (await ask(c, key)).json()) as any;
    const streamed = await (await ask(c, key, { stream: true, stream_options: { include_usage: true } })).text();
    const streamUsage = JSON.parse(streamed.split('\n').filter((l) => l.includes('"usage":{')).at(-1)!.slice(6)).usage;
    expect((await ask(c, key)).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 100)); // rows close when the response ends

    expect((await fetch(`${c.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${c.url}/metrics`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    const res = await fetch(`${c.url}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain;.*version=0.0.4/);
    const text = await res.text();
    const value = (series: string): number => Number(text.split('\n').find((l) => l.startsWith(series + ' '))?.slice(series.length + 1) ?? NaN);
    expect(value('rosetta_requests_total{dialect="openai",model="rosetta/gpt-4o-mini",provider="openai",status="200"}')).toBe(2);
    expect(value('rosetta_tokens_total{model="rosetta/gpt-4o-mini",kind="input"}')).toBe(plain.usage.prompt_tokens + streamUsage.prompt_tokens);
    expect(value('rosetta_tokens_total{model="rosetta/gpt-4o-mini",kind="output"}')).toBe(plain.usage.completion_tokens + streamUsage.completion_tokens);
    const output = plain.usage.completion_tokens + streamUsage.completion_tokens;
    const input = plain.usage.prompt_tokens + streamUsage.prompt_tokens;
    expect(value('rosetta_cost_usd_total{model="rosetta/gpt-4o-mini"}')).toBeCloseTo(input * OPENAI_PRICE.prompt + output * OPENAI_PRICE.completion, 12);
    expect(value('rosetta_rate_limited_total{limit="requests"}')).toBe(1);
    expect(value('rosetta_request_duration_seconds_count{dialect="openai",streamed="true"}')).toBe(1);
    expect(value('rosetta_time_to_first_token_seconds_count{dialect="openai"}')).toBe(1);
    expect(value('rosetta_circuit_state{endpoint="openai/gpt-4o-mini"}')).toBe(0);
    expect(value('rosetta_rate_limit_degraded')).toBe(0);
    expect(value('rosetta_usage_ledger_dropped_rows')).toBe(0);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
    // No secret: neither the caller's key nor the operator's upstream key.
    expect(text).not.toContain(key.split('_')[2]!);
    expect(text).not.toContain('sk-operator');
  });

  describe('usage ledger', () => {
    const lookup = async (id: string) => (await adminCall(a, 'GET', `/admin/requests/${id}`)).body;

    it('records plain, streamed, failed-over and failed requests with tokens and cost', async () => {
      const { key } = await createKey(a, 'pro');
      const plain = await ask(a, key);
      const plainBody = (await plain.json()) as any;
      const plainRow = await lookup(plain.headers.get('x-request-id')!);
      expect(plainRow).toEqual(
        expect.objectContaining({
          status: 200, dialect: 'openai', requested_model: 'rosetta/gpt-4o-mini', served_model: 'rosetta/gpt-4o-mini', provider: 'openai',
          input_tokens: plainBody.usage.prompt_tokens, output_tokens: plainBody.usage.completion_tokens, streamed: false, attempts: 1, error_type: null,
        }),
      );
      expect(plainRow.cost_usd).toMatch(/^\d+\.\d+$/); // a decimal string, never 2.7e-05
      expect(Number(plainRow.cost_usd)).toBeCloseTo(plainBody.usage.prompt_tokens * OPENAI_PRICE.prompt + plainBody.usage.completion_tokens * OPENAI_PRICE.completion, 10);

      const streamed = await ask(b, key, { stream: true, stream_options: { include_usage: true } });
      const text = await streamed.text();
      const usage = JSON.parse(text.split('\n').filter((l) => l.includes('"usage":{')).at(-1)!.slice(6)).usage;
      const streamRow = await lookup(streamed.headers.get('x-request-id')!);
      expect(streamRow).toEqual(expect.objectContaining({ status: 200, streamed: true, input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens }));
      expect(streamRow.ttft_ms).toEqual(expect.any(Number));

      const m = `fallover-${Date.now()}`;
      sim.script({ match: m, reply: { error: { status: 500, message: 'openai down' } }, times: 2 });
      const failedOver = await ask(a, key, { models: ['rosetta/gpt-4.1-mini'], messages: [{ role: 'user', content: m }] });
      expect(failedOver.status).toBe(200);
      const overRow = await lookup(failedOver.headers.get('x-request-id')!);
      expect(overRow).toEqual(expect.objectContaining({ status: 200, served_model: 'rosetta/gpt-4.1-mini', attempts: 3 }));
      expect(Number(overRow.cost_usd)).toBeGreaterThan(0);

      const dead = `dead-${Date.now()}`;
      sim.script({ match: dead, reply: { error: { status: 503, message: 'everything down' } } });
      const failed = await ask(a, key, { messages: [{ role: 'user', content: dead }] });
      expect(failed.status).toBe(502);
      expect(await lookup(failed.headers.get('x-request-id')!)).toEqual(
        expect.objectContaining({ status: 502, error_type: 'upstream_error', served_model: null, attempts: 2, input_tokens: 0 }),
      );
    });

    it('aggregates per key, model and day', async () => {
      const { id, key } = await createKey(a, 'pro');
      await ask(a, key);
      await ask(b, key);
      await new Promise((r) => setTimeout(r, 1200)); // every replica writes its batch within a second
      const report = await adminCall(a, 'GET', `/admin/usage?key_id=${id}`);
      expect(report.status).toBe(200);
      expect(report.body.data).toEqual([
        expect.objectContaining({ api_key_id: id, served_model: 'rosetta/gpt-4o-mini', requests: 2, errors: 0, day: new Date().toISOString().slice(0, 10) }),
      ]);
      expect(Number(report.body.data[0].cost_usd)).toBeGreaterThan(0);
    });

    it("keeps one row per request whatever x-request-id the caller sends, and finds them by the caller's id", async () => {
      const { key } = await createKey(a, 'pro');
      const askWithId = (gateway: GatewayProcess, id: string) =>
        fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': id },
          body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
        });
      const clientId = `client-${Date.now().toString(36)}`;
      const same = await Promise.all([askWithId(a, clientId), askWithId(b, clientId), askWithId(a, clientId)]);
      const ids = same.map((r) => r.headers.get('x-request-id')!);
      expect(new Set(ids).size).toBe(3);
      for (const r of same) {
        expect(r.status).toBe(200);
        expect(r.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
        expect(r.headers.get('x-client-request-id')).toBe(clientId);
      }
      // A caller quoting another request's id gets a new one: the first row stays the first request's.
      const victim = ids[0]!;
      const forged = await askWithId(b, victim);
      expect(forged.headers.get('x-request-id')).not.toBe(victim);
      // Each replica writes its batch within a second: wait for the rows, not for a time.
      const count = async (): Promise<number> =>
        (await query<{ n: number }>(db.url, 'SELECT count(*)::int AS n FROM request_log WHERE client_request_id = ANY($1)', [[clientId, victim]]))[0]!.n;
      for (let i = 0; i < 100 && (await count()) < 4; i++) await new Promise((r) => setTimeout(r, 50));
      const byClient = await lookup(clientId);
      expect(byClient.matches.map((row: any) => row.request_id).sort()).toEqual([...ids].sort());
      expect(await lookup(victim)).toEqual(expect.objectContaining({ request_id: victim, client_request_id: clientId }));
      const rows = await query<{ request_id: string }>(db.url, 'SELECT request_id FROM request_log WHERE request_id = ANY($1) OR client_request_id = $2', [
        [...ids, forged.headers.get('x-request-id')],
        victim,
      ]);
      expect(rows.map((r) => r.request_id).sort()).toEqual([...ids, forged.headers.get('x-request-id')!].sort());
    });

    it('loses nothing when a replica receives SIGTERM with a batch pending', async () => {
      const c = await startGateway(env());
      const { key } = await createKey(c, 'pro');
      const ids = await Promise.all(Array.from({ length: 20 }, async () => (await ask(c, key)).headers.get('x-request-id')!));
      expect(await c.stop('SIGTERM')).toBe(0);
      const rows = await query<{ n: number }>(db.url, 'SELECT count(*)::int AS n FROM request_log WHERE request_id = ANY($1)', [ids]);
      expect(rows[0]!.n).toBe(20);
    });
  });

  describe('Redis stopped mid-test', () => {
    let redis: { url: string; kill(): void } | undefined;

    afterAll(() => {
      redis?.kill();
    });

    it('keeps answering by the documented policy: local limits, never a 500 or a hang', async () => {
      redis = await startPrivateRedis(6391);
      const c = await startGateway({ ...env(), REDIS_URL: redis.url });
      others.push(c);
      const { key } = await createKey(c, 'free');
      expect((await ask(c, key)).status).toBe(200);
      redis.kill();
      redis = undefined;
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const statuses = await Promise.all(Array.from({ length: 10 }, () => ask(c, key).then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
      const ready = await fetch(`${c.url}/readyz`);
      expect(await ready.json()).toEqual(expect.objectContaining({ redis: 'unavailable' }));
    });
  });
});
