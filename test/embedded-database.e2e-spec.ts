import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { usageCsv, type ReportDimension } from '@rosetta/usage';
import { createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';

/** With no DATABASE_URL the gateway runs on embedded PGlite, with the same migrations. */
describe('embedded database (PGlite) start', () => {
  let sim: RunningSimulator;
  let dataDir: string;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    sim = await startSimulator();
    dataDir = mkdtempSync(join(tmpdir(), 'rosetta-pglite-'));
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({ ROSETTA_DATA_DIR: dataDir, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-embedded-000000' });

  it('starts, says which database it uses, serves dialect A, and keeps keys across restarts', async () => {
    gateway = await startGateway(env());
    expect(gateway.output()).toContain('database: embedded PGlite');
    expect(gateway.output()).toContain(join(dataDir, 'pgdata'));
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'not configured' });

    const { key } = await createKey(gateway, 'free');
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'embedded hello' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from gpt-4o-mini: embedded hello');

    expect(await gateway.stop()).toBe(0);
    gateway = await startGateway(env());
    expect(gateway.output()).toContain('"migrationsApplied":[]');
    const again = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const second = await again.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'still here' }] });
    expect(second.choices[0]!.message.content).toBe('Simulated reply from gpt-4o-mini: still here');
  });

  it('keeps Responses answers on PGlite: continued, read back, listed, deleted, and another key\'s refused', async () => {
    // The gateway of the test before, on the same embedded database.
    const { key } = await createKey(gateway!, 'free');
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway!.url}/v1`, maxRetries: 0 });
    const first = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: 'Hold \u0000 this' });
    const second = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: 'And this', previous_response_id: first.id });
    expect(second.output_text).toBe('Simulated reply from gpt-4o-mini: And this');
    const third = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: [{ type: 'item_reference', id: first.output[0]!.id! }, { role: 'user', content: 'Again' }] });
    expect(third.status).toBe('completed');
    expect(await client.responses.retrieve(first.id)).toEqual(expect.objectContaining({ id: first.id, output_text: first.output_text }));
    expect((await client.responses.inputItems.list(third.id, { order: 'asc' })).data.map((item) => item.id)).toEqual([first.output[0]!.id, expect.stringMatching(/^msg_/)]);
    const stranger = new OpenAI({ apiKey: (await createKey(gateway!, 'free')).key, baseURL: `${gateway!.url}/v1`, maxRetries: 0 });
    await expect(stranger.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    await expect(stranger.responses.delete(first.id)).rejects.toMatchObject({ status: 404 });
    await client.responses.delete(first.id);
    await expect(client.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
  });

  it('answers from the in-process response cache without Redis, streamed or not, and records the hits', async () => {
    const { id, key } = await createKey(gateway!, 'free', { cache: { mode: 'exact', ttl_s: 60 } });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway!.url}/v1`, maxRetries: 0 });
    const ask = { model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user' as const, content: 'cache me in process' }] };
    const first = await client.chat.completions.create(ask).withResponse();
    expect(first.response.headers.get('x-rosetta-cache')).toBe('miss');
    const again = await client.chat.completions.create(ask).withResponse();
    expect(again.response.headers.get('x-rosetta-cache')).toBe('hit');
    expect(again.data.choices[0]!.message.content).toBe(first.data.choices[0]!.message.content);
    expect(again.data.usage?.prompt_tokens).toBe(first.data.usage?.prompt_tokens);
    const streamed = await client.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } }).withResponse();
    expect(streamed.response.headers.get('x-rosetta-cache')).toBe('hit');
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of streamed.data) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(first.data.choices[0]!.message.content);
    // The stream carries the stored answer's usage, at no cost.
    expect(usage).toMatchObject({ prompt_tokens: first.data.usage!.prompt_tokens, completion_tokens: first.data.usage!.completion_tokens });
    expect(sim.requests().filter((r) => JSON.stringify(r.body).includes('cache me in process'))).toHaveLength(1);
    for (let i = 0; ; i++) {
      const usage = await fetch(`${gateway!.url}/admin/usage?key_id=${id}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }).then((r) => r.json() as Promise<any>);
      if (usage.totals.requests >= 3 || i >= 100) {
        expect(usage.totals).toMatchObject({ requests: 3, cache_hits: 2 });
        expect(Number(usage.totals.saved_usd)).toBeGreaterThan(0);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('pages usage reports and streams their CSV on PGlite: the pages put together are the whole report', async () => {
    const get = async (search: string): Promise<any> => {
      const res = await fetch(`${gateway!.url}/admin/usage?${search}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
      return res.json();
    };
    // Led by the day (read in order from the rollups' indexes), and by key (grouped whole).
    for (const groupBy of ['day,key,model', 'key']) {
      const whole = await get(`group_by=${groupBy}&limit=10000`);
      expect(whole.data.length).toBeGreaterThanOrEqual(3);
      const pages = [await get(`group_by=${groupBy}&from=${whole.from}&to=${whole.to}&limit=2`)];
      while (pages[pages.length - 1].next_cursor) pages.push(await get(`cursor=${pages[pages.length - 1].next_cursor}&limit=2`));
      expect(pages.flatMap((page) => page.data)).toEqual(whole.data);
      expect(pages.map((page) => page.totals)).toEqual(pages.map(() => whole.totals));
      const csv = await fetch(`${gateway!.url}/admin/usage?group_by=${groupBy}&from=${whole.from}&to=${whole.to}&format=csv`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(await csv.text()).toBe(usageCsv(groupBy.split(',') as ReportDimension[], whole.data));
    }
  });

  it('matches near-duplicate questions semantically with the bundled pgvector, and nothing else', async () => {
    const { key } = await createKey(gateway!, 'free', { cache: { mode: 'semantic', similarity: 0.9 } });
    const ask = async (content: string, system = 'Answer in one word.') => {
      const res = await fetch(`${gateway!.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'system', content: system }, { role: 'user', content }] }),
      });
      const body = (await res.json()) as any;
      return { status: res.status, cache: res.headers.get('x-rosetta-cache'), text: body.choices?.[0]?.message?.content };
    };
    const first = await ask('What is the capital city of France?');
    expect(first).toMatchObject({ status: 200, cache: 'miss' });
    // A rewording close enough (cosine 0.95 under the simulator's trigram embeddings) is the same question.
    expect(await ask('what is the capital city of France')).toEqual({ status: 200, cache: 'hit', text: first.text });
    // Another city is another question; so is the same question under other instructions.
    expect((await ask('What is the capital city of Spain?')).cache).toBe('miss');
    expect((await ask('Tell me a joke about penguins')).cache).toBe('miss');
    expect((await ask('what is the capital city of France', 'Answer at length.')).cache).toBe('miss');
  });

  it('on a first start without ADMIN_TOKEN, prints the generated token once with commands that work on its URL', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'rosetta-banner-'));
    const first = await startGateway({ ...env(), ROSETTA_DATA_DIR: fresh, ADMIN_TOKEN: undefined });
    try {
      const banner = first.output();
      const token = /export ROSETTA_URL=(\S+) ADMIN_TOKEN=(rat_\S+)/.exec(banner);
      expect(token?.[1]).toBe(first.url);
      expect(banner).toContain('npm run admin -- keys create --plan pro --name me');
      expect(banner).toContain('export ROSETTA_KEY=rsk_...');
      expect(banner).toContain(`Dashboard: ${first.url}/dashboard (sign in with the admin token)`);
      const created = await fetch(`${first.url}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token![2]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'me', plan: 'pro' }),
      });
      expect(created.status).toBe(201);
      expect(await first.stop()).toBe(0);
      const second = await startGateway({ ...env(), ROSETTA_DATA_DIR: fresh, ADMIN_TOKEN: undefined });
      expect(second.output()).not.toContain(token![2]);
      await second.stop();
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('names DATABASE_URL when the database cannot be reached, without its password', async () => {
    const failure = startGateway({ ...env(), DATABASE_URL: 'postgres://someone:hunter2secret@127.0.0.1:1/nowhere' });
    await expect(failure).rejects.toThrow(/cannot reach the database of DATABASE_URL \(host 127\.0\.0\.1, port 1, database nowhere\)/);
    await expect(failure).rejects.not.toThrow(/hunter2secret/);
  });

  it('stops with a message naming the variable when configuration is invalid', async () => {
    await expect(startGateway({ ...env(), PORT: 'eighty' })).rejects.toThrow(/invalid configuration: PORT: must be a whole number/);
  });
});
