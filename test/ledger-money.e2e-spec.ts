import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

/**
 * The promises Rosetta makes to the people who bill by it (issue 26), end to end: a caller's own
 * upstream (provider_configs, BYOK) that reports hostile usage cannot stop the ledger or make money
 * negative; a request abandoned after the call went out is charged its prompt; a caller cannot
 * outlive its budget hold; one request cannot settle far past its hold; documents hold by size.
 */

/** What the caller-controlled upstream does for a request whose prompt holds `marker`. */
interface HostilePlan {
  usage?: unknown;
  /** Never answer: keep the request open until the gateway lets go of it. */
  hold?: boolean;
}

/** An OpenAI-compatible upstream of the caller's, answering what each test tells it to. */
class HostileUpstream {
  private readonly plans = new Map<string, HostilePlan>();
  private readonly arrivals = new Map<string, () => void>();
  readonly server: Server = createServer((req, res) => void this.answer(req, res));

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  plan(marker: string, plan: HostilePlan): void {
    this.plans.set(marker, plan);
  }

  /** Resolves when a request with `marker` reached this upstream. */
  arrived(marker: string): Promise<void> {
    return new Promise((resolve) => this.arrivals.set(marker, resolve));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text) as { stream?: boolean };
    const marker = [...this.plans.keys()].find((m) => text.includes(m));
    const plan = marker === undefined ? {} : this.plans.get(marker)!;
    if (marker !== undefined) this.arrivals.get(marker)?.();
    if (plan.hold) return; // the gateway's abort closes the socket
    const usage = plan.usage ?? { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
    const base = { id: 'chatcmpl-hostile', created: 1, model: 'gpt-4o-mini' };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (extra: Record<string, unknown>) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...extra })}\n\n`;
    res.write(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello there, this is relayed text' }, finish_reason: null }] }));
    res.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
    res.write(chunk({ choices: [], usage }));
    res.end('data: [DONE]\n\n');
  }
}

describe('the ledger and budgets against a hostile caller (issue 26)', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let hostile: HostileUpstream;
  let hostileUrl: string;
  let key: string;
  let keyId: string;
  let serial = 0;

  beforeAll(async () => {
    hostile = new HostileUpstream();
    [sim, db, hostileUrl] = await Promise.all([startSimulator(), createTestDatabase(), hostile.start()]);
    gateway = await startGateway({
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-operator-000000000000',
      ANTHROPIC_BASE_URL: sim.url,
      ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
      UPSTREAM_ALLOW_HOSTS: '127.0.0.1',
      // Short enough that a request the caller tried to keep open forever ends within the test.
      UPSTREAM_TOTAL_TIMEOUT_MS: '4000',
    });
    ({ key, id: keyId } = await createKey(gateway, 'enterprise'));
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    hostile?.server.closeAllConnections();
    hostile?.server.close();
    await db?.drop();
  });

  const marker = (name: string): string => `${name}-${process.pid}-${++serial}`;

  /** A chat request through the caller's own upstream (BYOK), or the operator's with `byok: false`. */
  const chat = (apiKey: string, text: string, extra: Record<string, unknown> = {}, init: { signal?: AbortSignal; byok?: boolean; requestId?: string } = {}) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      signal: init.signal,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-request-id': init.requestId ?? text },
      body: JSON.stringify({
        model: 'rosetta/gpt-4o-mini',
        max_tokens: 100,
        messages: [{ role: 'user', content: text }],
        ...(init.byok === false ? {} : { provider_only: ['openai'], provider_configs: { openai: { api_key: 'caller-own-key', base_url: hostileUrl } } }),
        ...extra,
      }),
    });

  /** The ledger row of the request the caller sent as `x-request-id: id` (the lookup waits for the batch). */
  const row = async (id: string): Promise<Record<string, any>> => {
    const found = await adminCall(gateway, 'GET', `/admin/requests/${id}`);
    expect(found.status).toBe(200);
    return found.body;
  };

  describe('hostile usage blocks', () => {
    it.each([
      ['huge', { prompt_tokens: 3_000_000_000, completion_tokens: 3, total_tokens: 3_000_000_003 }],
      ['negative', { prompt_tokens: 9, completion_tokens: -200_000_000, total_tokens: -199_999_991 }],
      ['fractional', { prompt_tokens: 9.5, completion_tokens: 3, total_tokens: 12.5 }],
      ['string', { prompt_tokens: '9', completion_tokens: 3, total_tokens: 12 }],
    ])('a %s count is a malformed upstream answer, recorded as such, never a negative or unwritable row', async (_kind, usage) => {
      const id = marker('usage');
      hostile.plan(id, { usage });
      const res = await chat(key, id);
      const body = (await res.json()) as any;
      expect(res.status).toBe(502);
      expect(body.error).toMatchObject({ type: 'upstream_error', message: expect.stringContaining('malformed usage') });
      expect(res.headers.get('x-rosetta-cost-usd')).toBeNull();
      expect(await row(id)).toMatchObject({ status: 502, error_type: 'upstream_error', input_tokens: 0, output_tokens: 0, cost_usd: '0' });
    });

    it('a hostile usage at the end of a stream ends it with an error, charging the prompt and the output relayed', async () => {
      const id = marker('stream-usage');
      hostile.plan(id, { usage: { prompt_tokens: 3_000_000_000, completion_tokens: 5, total_tokens: 3_000_000_005 } });
      const res = await chat(key, id, { stream: true, stream_options: { include_usage: true } });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toContain('Hello there, this is relayed text');
      expect(text).toContain('malformed usage');
      const recorded = await row(id);
      expect(recorded).toMatchObject({ error_type: 'upstream_error', output_tokens: Math.ceil('Hello there, this is relayed text'.length / 4) });
      expect(recorded['input_tokens']).toBeGreaterThan(0);
      expect(recorded['input_tokens']).toBeLessThan(100);
      expect(Number(recorded['cost_usd'])).toBeGreaterThan(0);
    });

    it('keeps every replica\'s ledger writing and every total non-negative after them', async () => {
      const id = marker('after');
      const res = await chat(key, id, {}, { byok: false });
      expect(res.status).toBe(200);
      expect(await row(id)).toMatchObject({ status: 200, error_type: null });
      const usage = await adminCall(gateway, 'GET', `/admin/usage?group_by=key&key_id=${keyId}`);
      expect(usage.status).toBe(200);
      const [mine] = usage.body.data as any[];
      expect(mine).toMatchObject({ api_key_id: keyId, errors: expect.any(Number) });
      expect(mine.errors).toBeGreaterThanOrEqual(5);
      expect(Number(mine.cost_usd)).toBeGreaterThan(0);
      expect(mine.input_tokens).toBeGreaterThanOrEqual(0);
      expect(mine.output_tokens).toBeGreaterThanOrEqual(0);
      const [negative] = await query<{ n: number }>(db.url, 'SELECT count(*)::int AS n FROM request_log WHERE cost_usd < 0 OR input_tokens < 0 OR output_tokens < 0');
      expect(negative!.n).toBe(0);
    });
  });

  describe('a request its client abandons after the call went out', () => {
    it.each([
      ['non-streamed', {}],
      ['streamed', { stream: true }],
    ])('%s: is charged the estimated prompt, marked client_disconnected', async (_kind, extra) => {
      const id = marker('abandoned');
      hostile.plan(id, { hold: true });
      const client = new AbortController();
      const arrived = hostile.arrived(id);
      const pending = chat(key, `${id} ${'please summarise this paragraph of text. '.repeat(20)}`, extra, { signal: client.signal, requestId: id }).catch((error: Error) => error.name);
      await arrived;
      client.abort();
      expect(await pending).toBe('AbortError');
      const recorded = await row(id);
      expect(recorded).toMatchObject({ status: 499, error_type: 'client_disconnected', served_model: 'rosetta/gpt-4o-mini', output_tokens: 0 });
      expect(recorded['input_tokens']).toBeGreaterThan(150);
      expect(Number(recorded['cost_usd'])).toBeCloseTo(recorded['input_tokens'] * 0.00000015, 12);
    });
  });

  it('caps a caller endpoint_overrides timeout at the operator\'s: a held request ends with 504, not never', async () => {
    const id = marker('override');
    hostile.plan(id, { hold: true });
    const res = await chat(key, id, {
      provider_configs: { openai: { api_key: 'caller-own-key', base_url: hostileUrl, endpoint_overrides: { 'rosetta/gpt-4o-mini': { timeout: 2 ** 31 - 1 } } } },
    });
    expect(res.status).toBe(504);
  });

  it('settles at most twice the budget hold, recording the excess as uncharged', async () => {
    const created = await adminCall(gateway, 'POST', '/admin/keys', { name: 'dollar-a-day', plan: 'enterprise', budget_usd: 1, budget_period: 'day' });
    expect(created.status).toBe(201);
    const id = marker('over-hold');
    // 2e9 prompt tokens are a valid count, at gpt-4o-mini's prices $300: far past what "hi" held.
    hostile.plan(id, { usage: { prompt_tokens: 2_000_000_000, completion_tokens: 3, total_tokens: 2_000_000_003 } });
    const res = await chat(created.body.key, id);
    expect(res.status).toBe(200);
    const charged = Number(res.headers.get('x-rosetta-cost-usd'));
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(0.001);
    const recorded = await row(id);
    expect(Number(recorded['cost_usd'])).toBe(charged);
    expect(Number(recorded['uncharged_usd'])).toBeCloseTo(300.0000018 - charged, 6);
    const seen = await adminCall(gateway, 'GET', `/admin/keys/${created.body.id}`);
    expect(Number(seen.body.spend_usd)).toBeLessThan(0.001);
    // The key can still spend the rest of its dollar.
    expect((await chat(created.body.key, marker('still-open'), {}, { byok: false })).status).toBe(200);
  });

  it('holds a document by its size: a 40-page PDF is refused by a budget a one-page PDF fits in', async () => {
    const created = await adminCall(gateway, 'POST', '/admin/keys', { name: 'pdf-budget', plan: 'enterprise', budget_usd: 0.1, budget_period: 'day' });
    const pdf = (pages: number): string => {
      const objects = Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj\n`).join('');
      return Buffer.from(`%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count ${pages} >> endobj\n${objects}%%EOF\n`).toString('base64');
    };
    const ask = (pages: number) =>
      fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': created.body.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'rosetta/claude-sonnet-4-5',
          max_tokens: 100,
          messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf(pages) } }, { type: 'text', text: 'Summarise it.' }] }],
        }),
      });
    const small = await ask(1);
    expect(small.status).toBe(200);
    const large = await ask(40);
    const body = (await large.json()) as any;
    expect(large.status).toBe(402);
    expect(body.error.type).toBe('budget_exceeded');
    expect(body.error.message).toMatch(/may cost up to \$0\.[1-9]/);
  });
});
