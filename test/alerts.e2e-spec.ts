import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { startReplicas, type GatewayReplicas } from './support/gateway-replicas';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';
import { signatureValid, startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from './support/webhook-receiver';

/**
 * Alerts by webhook (issue 31): two replicas sharing PostgreSQL and Redis, a receiver on loopback
 * (allowed by WEBHOOK_ALLOW_HOSTS). Each event reaches each subscribed webhook once, signed, and
 * each attempt is in the audit log.
 */
describe('alerts by webhook, once per event across two replicas', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let receiver: WebhookReceiver;
  let replicas: GatewayReplicas;
  const secret = 'alerts-test-secret-0123456789';

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    receiver = await startWebhookReceiver();
    replicas = await startReplicas(2, {
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-operator-000000000000',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      ALERTS_POLL_MS: '200',
      ALERTS_RETRY_BASE_MS: '200',
      CIRCUIT_BREAKER_FAILURES: '2',
      CIRCUIT_BREAKER_COOLDOWN_MS: '1000',
      ALERTS_SPEND_DAILY_PERIOD_MS: '4000',
      ALERTS_GUARDRAIL_BLOCKED_PER_HOUR: '3',
    });
  });

  afterAll(async () => {
    await replicas?.stop();
    await receiver?.close();
    await sim?.close();
    await db?.drop();
  });

  const a = () => replicas.at(0);
  const b = () => replicas.at(1);
  const hooksAt = (path: string, hooks: ReceivedHook[] = receiver.received()) => hooks.filter((h) => h.path === path);
  const delivered = (hooks: ReceivedHook[]) => hooks.filter((h) => h.status === 200);

  /** Every delivery finished (none pending in the outbox): nothing more can arrive. */
  async function outboxSettled(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const [row] = await query<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'");
      if (row!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('deliveries still pending');
  }

  async function addWebhook(path: string, events: string[]): Promise<string> {
    const created = await adminCall(a(), 'POST', '/admin/webhooks', { url: `${receiver.url}${path}`, events, secret });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  describe('the admin API', () => {
    it('adds a webhook (never showing its secret again), lists it on the other replica, and removes it', async () => {
      // guardrail.blocked: an event nothing raises here, so no delivery lands in the audit log below.
      const created = await adminCall(a(), 'POST', '/admin/webhooks', { url: `${receiver.url}/admin-check`, events: ['guardrail.blocked'], secret });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(String), url: `${receiver.url}/admin-check`, events: ['guardrail.blocked'], created_at: expect.any(String), last_delivery: null });
      const listed = await adminCall(b(), 'GET', '/admin/webhooks');
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([created.body]);
      expect(JSON.stringify(listed.body)).not.toContain(secret);
      const [stored] = await query<{ secret: string }>(db.url, 'SELECT secret FROM webhooks WHERE id = $1', [created.body.id]);
      expect(stored!.secret).toMatch(/^enc:v2:/);
      expect(stored!.secret).not.toContain(secret);

      expect((await adminCall(b(), 'DELETE', `/admin/webhooks/${created.body.id}`)).body).toEqual({ id: created.body.id, deleted: true });
      expect((await adminCall(a(), 'DELETE', `/admin/webhooks/${created.body.id}`)).status).toBe(404);
      expect((await adminCall(a(), 'GET', '/admin/webhooks')).body).toEqual([]);
      const audit = await adminCall(a(), 'GET', '/admin/audit?action=webhook');
      expect(audit.body.data.map((e: any) => e.action)).toEqual(['webhook.delete', 'webhook.create']);
      expect(audit.body.data[1].details).toEqual({ url: `${receiver.url}/…`, events: ['guardrail.blocked'], secret_source: 'given' });
      expect(JSON.stringify(audit.body)).not.toContain(secret);
    });

    it('generates a secret when none is given and shows it once', async () => {
      const created = await adminCall(a(), 'POST', '/admin/webhooks', { url: `${receiver.url}/generated`, events: ['guardrail.blocked'] });
      expect(created.status).toBe(201);
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(JSON.stringify((await adminCall(a(), 'GET', '/admin/webhooks')).body)).not.toContain(created.body.secret);
      expect((await adminCall(a(), 'DELETE', `/admin/webhooks/${created.body.id}`)).status).toBe(200);
    });

    it.each([
      ['a private address not in WEBHOOK_ALLOW_HOSTS', { url: 'http://192.168.1.10/hook', events: ['spend.daily'] }, 'url', 'not allowed'],
      ['a loopback name', { url: 'https://localhost/hook', events: ['spend.daily'] }, 'url', 'not allowed'],
      ['cloud metadata', { url: 'https://169.254.169.254/latest', events: ['spend.daily'] }, 'url', 'not allowed'],
      ['plain http to a public host', { url: 'http://example.com/hook', events: ['spend.daily'] }, 'url', 'not allowed'],
      ['credentials in the URL', { url: 'https://user:pw@example.com/hook', events: ['spend.daily'] }, 'url', 'not allowed'],
      ['not a URL', { url: 'hooks here', events: ['spend.daily'] }, 'url', 'absolute URL'],
      ['an unknown event', { url: 'https://example.com/hook', events: ['budget.threshold', 'budget.exploded'] }, 'events', 'each event must be one of'],
      ['no events', { url: 'https://example.com/hook', events: [] }, 'events', 'at least one'],
      ['a short secret', { url: 'https://example.com/hook', events: ['spend.daily'], secret: 'short' }, 'secret', '16 to 512'],
      ['an unknown field', { url: 'https://example.com/hook', events: ['spend.daily'], evnets: [] }, 'evnets', 'Unknown field'],
    ])('refuses %s with a 400 naming the field', async (_name, body, param, text) => {
      const res = await adminCall(a(), 'POST', '/admin/webhooks', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.objectContaining({ type: 'invalid_request_error', param }));
      expect(res.body.error.message).toContain(text);
    });

    it('answers hostile bodies with a 400, never a 5xx or a hang', async () => {
      const long = 'x'.repeat(100_000);
      const bodies: unknown[] = [
        null, 0, 'url', [], [{ url: 'https://example.com' }], {},
        { url: null, events: null }, { url: 42, events: ['spend.daily'] }, { url: ['https://example.com'], events: ['spend.daily'] },
        { url: 'https://example.com/\u0000', events: ['spend.daily'] }, { url: 'https://example.com/\ud800', events: ['spend.daily'] },
        { url: `https://example.com/${long}`, events: ['spend.daily'] }, { url: 'https://example.com', events: 'spend.daily' },
        { url: 'https://example.com', events: [{}] }, { url: 'https://example.com', events: Array.from({ length: 10_000 }, () => 'spend.daily') },
        { url: 'https://example.com', events: ['spend.daily', 'spend.daily'] }, { url: 'https://example.com', events: ['spend.daily'], secret: 42 },
        { url: 'https://example.com', events: ['spend.daily'], secret: long }, { url: 'https://example.com', events: ['spend.daily'], secret: 'sixteen-chars-ok\u0000' },
        { url: 'javascript:alert(1)', events: ['spend.daily'] }, { url: 'file:///etc/passwd', events: ['spend.daily'] }, { url: 'http://[::1]:80/', events: ['spend.daily'] },
        { url: 'http://10.1.2.3.nip.io/', events: ['spend.daily'] }, { url: 'https://a.internal/', events: ['spend.daily'] }, { url: 'gopher://127.0.0.1/', events: ['spend.daily'] },
        { __proto__: { url: 'x' }, constructor: { prototype: {} } }, { url: 'https://example.com', events: ['__proto__'] },
      ];
      for (const body of bodies) {
        const res = await adminCall(a(), 'POST', '/admin/webhooks', body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(typeof res.body.error.message).toBe('string');
      }
      const broken = await fetch(`${a().url}/admin/webhooks`, { method: 'POST', headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'application/json' }, body: '{"url": "https://' });
      expect(broken.status).toBe(400);
      for (const id of ['not-a-uuid', '00000000-0000-0000-0000-000000000000', '%00', 'x'.repeat(5_000)]) {
        expect((await adminCall(a(), 'DELETE', `/admin/webhooks/${encodeURIComponent(id)}`)).status).toBe(404);
      }
      expect((await adminCall(a(), 'GET', '/admin/webhooks')).body).toEqual([]);
    });
  });

  it('a key driven over its budget with the openai SDK gives one signed budget.threshold at 50, 80 and 100 %, the refused first attempt retried', async () => {
    const webhookId = await addWebhook('/budget', ['budget.threshold']);
    receiver.failNext('/budget', 1, 503);
    const key = await adminCall(a(), 'POST', '/admin/keys', { name: 'alerting', plan: 'enterprise', budget_usd: 0.0005, budget_period: 'day' });
    expect(key.status).toBe(201);
    sim.script({ match: 'alert me', reply: { text: 'a few words that cost a little money' } });
    const clients = replicas.ports.map((_, i) => new OpenAI({ apiKey: key.body.key, baseURL: `${replicas.at(i).url}/v1`, maxRetries: 0 }));
    // On until both replicas have refused a few times (a refusal can come while the previous
    // request's hold is not yet replaced by its cost, and the next one then fits): one 100 % alert.
    const refused: unknown[] = [];
    for (let i = 0; i < 400 && refused.length < 6; i++) {
      await clients[i % 2]!.chat.completions.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 40, messages: [{ role: 'user', content: 'alert me' }] }).catch((error: unknown) => {
        refused.push(error);
      });
    }
    expect(refused).toHaveLength(6);
    for (const error of refused) {
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    }

    await receiver.until((hooks) => new Set(delivered(hooksAt('/budget', hooks)).map((h) => h.body.data.threshold)).size === 3, 'three budget thresholds');
    await outboxSettled();
    const hooks = hooksAt('/budget');
    const ok = delivered(hooks);
    expect(ok.map((h) => h.body.data.threshold).sort()).toEqual([100, 50, 80]);
    const period = `d${new Date().toISOString().slice(0, 10)}`;
    expect(ok.map((h) => h.body.id).sort()).toEqual([100, 50, 80].map((t) => `budget.threshold:key:${key.body.id}:${period}:${t}`));
    for (const hook of hooks) {
      expect(signatureValid(secret, hook.raw, hook.headers['x-rosetta-signature'])).toBe(true);
      expect(hook.headers['content-type']).toBe('application/json');
      expect(Object.keys(JSON.parse(hook.raw))).toEqual(['event', 'text', 'data', 'id']);
    }
    const eighty = ok.find((h) => h.body.data.threshold === 80)!.body;
    expect(eighty).toEqual({
      event: 'budget.threshold',
      text: expect.stringMatching(/^Key 'alerting' has used 80% of its \$0\.0005 daily budget \(\$0\.000\d spent\); it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z\.$/),
      data: {
        scope: 'key', id: key.body.id, name: 'alerting', threshold: 80, budget_usd: '0.0005', spent_usd: expect.stringMatching(/^0\.000[4-5]\d*$/),
        period: 'day', period_start: expect.stringMatching(/T00:00:00\.000Z$/), resets_at: expect.stringMatching(/T00:00:00\.000Z$/),
      },
      id: `budget.threshold:key:${key.body.id}:${period}:80`,
    });
    expect(ok.find((h) => h.body.data.threshold === 100)!.body.text).toMatch(/^Key 'alerting' has reached its \$0\.0005 daily budget .*: a request was refused; it resets at /);
    // The first POST was refused (503) and the same event came again.
    expect(hooks).toHaveLength(4);
    expect(hooks[0]!.status).toBe(503);
    expect(ok.some((h) => h.body.id === hooks[0]!.body.id)).toBe(true);

    const audit = await adminCall(b(), 'GET', '/admin/audit?action=webhook.deliver&limit=50');
    const entries = audit.body.data.filter((e: any) => e.target_id === webhookId);
    expect(entries).toHaveLength(4);
    expect(entries.map((e: any) => e.details.outcome).sort()).toEqual(['delivered', 'delivered', 'delivered', 'retry']);
    expect(entries.find((e: any) => e.details.outcome === 'retry')).toMatchObject({ actor: 'rosetta', method: 'system', target_name: hooks[0]!.body.id, details: { http_status: 503, attempt: 1 } });
    const listed = await adminCall(a(), 'GET', '/admin/webhooks');
    expect(listed.body.find((w: any) => w.id === webhookId).last_delivery).toMatchObject({ status: 'delivered', http_status: 200 });
  });

  it("a provider's circuit opening and closing on both replicas gives one provider.circuit_open and one provider.circuit_closed", async () => {
    await addWebhook('/circuit', ['provider.circuit_open', 'provider.circuit_closed']);
    const { key } = await createKey(a(), 'enterprise');
    const failing = `circuit-${Date.now()}`;
    sim.script({ match: failing, reply: { error: { status: 500, message: 'upstream down' } } });
    const clients = replicas.ports.map((_, i) => new OpenAI({ apiKey: key, baseURL: `${replicas.at(i).url}/v1`, maxRetries: 0 }));
    const ask = (client: OpenAI, content: string) => client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content }] });
    // Two failures (an attempt and its retry) open the circuit on each replica.
    for (const client of clients) await expect(ask(client, failing)).rejects.toMatchObject({ status: 502 });
    await receiver.until((hooks) => delivered(hooksAt('/circuit', hooks)).length >= 1, 'the circuit opening');

    // After the cool-down the next request is the probe; its success closes the circuit. Polled
    // with a bound: the cool-down is the gateways' clock, not an event this test can await.
    for (const client of clients) {
      for (let i = 0; ; i++) {
        const answered = await ask(client, 'healthy again').then(() => true, () => false);
        if (answered) break;
        if (i > 100) throw new Error('the circuit did not close');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await receiver.until((hooks) => delivered(hooksAt('/circuit', hooks)).some((h) => h.body.event === 'provider.circuit_closed'), 'the circuit closing');
    await outboxSettled();
    const hooks = hooksAt('/circuit');
    expect(hooks.map((h) => h.body.event)).toEqual(['provider.circuit_open', 'provider.circuit_closed']);
    const [open, closed] = hooks.map((h) => h.body);
    expect(open).toEqual({
      event: 'provider.circuit_open',
      text: expect.stringMatching(/^Provider 'openai' is failing: the circuit of openai\/gpt-4o-mini opened at /),
      data: { provider: 'openai', endpoint: 'openai/gpt-4o-mini', opening: expect.stringMatching(/^\d+$/), opened_at: expect.any(String) },
      id: `provider.circuit_open:openai:${open!.data.opening}`,
    });
    expect(closed).toMatchObject({ id: `provider.circuit_closed:openai:${open!.data.opening}`, data: { provider: 'openai', opening: open!.data.opening, closed_at: expect.any(String) } });
    for (const hook of hooks) expect(signatureValid(secret, hook.raw, hook.headers['x-rosetta-signature'])).toBe(true);
  });

  it('a guardrail blocking more than ALERTS_GUARDRAIL_BLOCKED_PER_HOUR requests an hour on two replicas gives one guardrail.blocked', async () => {
    // The count is per check and UTC hour in Redis: start in an hour with room for the test, from zero.
    const hourMs = 3_600_000;
    const untilNextHour = hourMs - (Date.now() % hourMs);
    if (untilNextHour < 60_000) await new Promise((resolve) => setTimeout(resolve, untilNextHour + 100));
    const hour = Math.floor(Date.now() / hourMs) * hourMs;
    const redis = new Redis(TEST_REDIS_URL);
    await redis.del(`rosetta:alerts:guardrail:{secrets}:${hour}`);
    await redis.quit();
    await addWebhook('/guardrail', ['guardrail.blocked']);
    const key = await adminCall(a(), 'POST', '/admin/keys', { name: 'leaky', plan: 'enterprise', guardrails: [{ check: 'secrets', on: 'input', action: 'block' }] });
    expect(key.status).toBe(201);
    const clients = replicas.ports.map((_, i) => new OpenAI({ apiKey: key.body.key, baseURL: `${replicas.at(i).url}/v1`, maxRetries: 0 }));
    const refusals = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        clients[i % 2]!.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: `deploy with AKIAIOSFODNN7EXAMPL${i}` }] }).then(
          () => 'answered',
          (error: unknown) => (error instanceof OpenAI.APIError ? `${error.status} ${(error.error as { type?: string } | undefined)?.type}` : String(error)),
        ),
      ),
    );
    expect(refusals).toEqual(Array.from({ length: 6 }, () => '400 guardrail_violation'));
    await receiver.until((hooks) => delivered(hooksAt('/guardrail', hooks)).length >= 1, 'the guardrail alert');
    await outboxSettled();
    const hooks = hooksAt('/guardrail');
    expect(hooks).toHaveLength(1);
    expect(signatureValid(secret, hooks[0]!.raw, hooks[0]!.headers['x-rosetta-signature'])).toBe(true);
    const hourStart = new Date(hour).toISOString();
    expect(hooks[0]!.body).toEqual({
      event: 'guardrail.blocked',
      text: `Guardrail 'secrets' has blocked more than 3 requests in the hour from ${hourStart}.`,
      data: { check: 'secrets', blocked: 4, threshold: 3, hour_start: hourStart, key_id: key.body.id, team_id: null },
      id: `guardrail.blocked:secrets:${hourStart}`,
    });
  });

  it('spend.daily summarises each closed period once across replicas, from the ledger', async () => {
    // ALERTS_SPEND_DAILY_PERIOD_MS=4000 stands in for a day: each 4 s window is summarised once it closes.
    await addWebhook('/spend', ['spend.daily']);
    const created = await adminCall(a(), 'POST', '/admin/keys', { name: 'summarised', plan: 'enterprise' });
    const clients = replicas.ports.map((_, i) => new OpenAI({ apiKey: created.body.key, baseURL: `${replicas.at(i).url}/v1`, maxRetries: 0 }));
    const named = (hooks: ReceivedHook[]) => hooksAt('/spend', hooks).some((h) => h.body.data.top_keys?.some((k: any) => k.id === created.body.id));
    // A request now and then until a window that held some is summarised (rows reach the ledger within a second).
    for (let i = 0; !named(receiver.received()); i++) {
      if (i > 120) throw new Error('no summary named the key');
      await clients[i % 2]!.chat.completions.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'summarise me' }] });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await outboxSettled();
    const hooks = hooksAt('/spend');
    const ids = hooks.map((h) => h.body.id);
    expect(new Set(ids).size).toBe(ids.length);
    const summary = hooks.find((h) => h.body.data.top_keys.some((k: any) => k.id === created.body.id))!.body;
    expect(summary).toEqual({
      event: 'spend.daily',
      text: expect.stringMatching(/^Spend on \d{4}-.*: \$[\d.]+ over \d+ requests?\. Top key: '.+' \(\$[\d.]+\)\. Top model: 'rosetta\/gpt-4o-mini' \(\$[\d.]+\)\.$/),
      data: {
        day: expect.any(String), from: expect.any(String), to: expect.any(String), cost_usd: expect.stringMatching(/^[\d.]+$/), requests: expect.any(Number), errors: expect.any(Number),
        top_keys: expect.arrayContaining([expect.objectContaining({ id: created.body.id, name: 'summarised' })]),
        top_teams: [],
        top_models: expect.arrayContaining([expect.objectContaining({ model: 'rosetta/gpt-4o-mini' })]),
      },
      id: `spend.daily:${summary.data.day}`,
    });
    expect(Date.parse(summary.data.to) - Date.parse(summary.data.from)).toBe(4_000);
    for (const hook of hooks) expect(signatureValid(secret, hook.raw, hook.headers['x-rosetta-signature'])).toBe(true);
  });
});

/** The same on the embedded database: one process, PGlite, no Redis. */
describe('alerts on the embedded database', () => {
  let sim: RunningSimulator;
  let receiver: WebhookReceiver;
  let gateway: GatewayProcess;
  let dataDir: string;

  beforeAll(async () => {
    sim = await startSimulator();
    receiver = await startWebhookReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'rosetta-alerts-'));
    gateway = await startGateway({ ROSETTA_DATA_DIR: dataDir, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ALERTS_POLL_MS: '200' });
  });

  afterAll(async () => {
    await gateway?.stop();
    await receiver?.close();
    await sim?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers each budget threshold of a key once, signed', async () => {
    const secret = 'embedded-secret-0123456789';
    expect((await adminCall(gateway, 'POST', '/admin/webhooks', { url: `${receiver.url}/embedded`, events: ['budget.threshold'], secret })).status).toBe(201);
    const key = await adminCall(gateway, 'POST', '/admin/keys', { name: 'embedded', plan: 'enterprise', budget_usd: 0.0002, budget_period: 'month' });
    const client = new OpenAI({ apiKey: key.body.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    let status = 0;
    for (let i = 0; i < 200 && status !== 402; i++) {
      status = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'embedded spend' }] }).then(
        () => 200,
        (error: { status?: number }) => error.status ?? 0,
      );
    }
    expect(status).toBe(402);
    const hooks = await receiver.until((all) => all.length >= 3, 'three budget thresholds');
    expect(hooks.map((h) => h.body.data.threshold).sort((x, y) => x - y)).toEqual([50, 80, 100]);
    expect(hooks.map((h) => h.body.id)).toEqual(expect.arrayContaining([`budget.threshold:key:${key.body.id}:m${new Date().toISOString().slice(0, 7)}:100`]));
    for (const hook of hooks) expect(signatureValid(secret, hook.raw, hook.headers['x-rosetta-signature'])).toBe(true);
    const listed = await adminCall(gateway, 'GET', '/admin/webhooks');
    expect(listed.body[0].last_delivery).toMatchObject({ status: 'delivered', http_status: 200 });
  });
});
