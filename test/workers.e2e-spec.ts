import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

const MODEL = 'rosetta/gpt-4o-mini';

/** Resolves once what the process has written (now or later) satisfies `seen`. */
function outputWhere(gateway: GatewayProcess, seen: (output: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      if (!seen(gateway.output())) return false;
      resolve();
      return true;
    };
    if (check()) return;
    const onData = (): void => {
      if (check()) {
        gateway.process.stdout!.off('data', onData);
        gateway.process.stderr!.off('data', onData);
      }
    };
    gateway.process.stdout!.on('data', onData);
    gateway.process.stderr!.on('data', onData);
  });
}

/** The worker that wrote each request's access-log line, by request id (the `worker` field of every log line). */
function workersByRequest(gateway: GatewayProcess): Map<string, number> {
  const byRequest = new Map<string, number>();
  for (const line of gateway.output().split('\n')) {
    if (!line.includes('"msg":"request"')) continue;
    const entry = JSON.parse(line) as { requestId: string; worker?: number };
    if (entry.worker !== undefined) byRequest.set(entry.requestId, entry.worker);
  }
  return byRequest;
}

/** The ids of responses whose access-log lines have been written, and the distinct workers that wrote them. */
async function servedBy(gateway: GatewayProcess, ids: string[]): Promise<number[]> {
  const logged = (): boolean => ids.every((id) => workersByRequest(gateway).has(id));
  // Access-log lines are written asynchronously once each response has finished.
  await outputWhere(gateway, logged);
  return [...new Set(ids.map((id) => workersByRequest(gateway).get(id)!))].sort();
}

/** The primary's child processes (its workers), from /proc. */
function workerPids(primary: number): number[] {
  return readdirSync(`/proc/${primary}/task`).flatMap((task) =>
    readFileSync(`/proc/${primary}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

async function scrape(gateway: GatewayProcess): Promise<(series: string) => number> {
  const res = await fetch(`${gateway.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  return (series) => Number(text.split('\n').find((l) => l.startsWith(series + ' '))?.slice(series.length + 1) ?? 0);
}

describe('WORKERS=2: one replica, two node:cluster workers, against PostgreSQL and Redis', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;

  /** `fresh`: on a connection of its own, which the primary hands to the next worker in turn. */
  const ask = (key: string, body: Record<string, unknown> = {}, fresh = false): Promise<Response> => {
    const url = `${gateway.url}/v1/chat/completions`;
    const init = {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], ...body }),
    };
    // Reused keep-alive connections may all lead to one worker; a new Agent has none to reuse.
    return fresh ? (undiciFetch(url, { ...init, dispatcher: new Agent() }) as unknown as Promise<Response>) : fetch(url, init);
  };

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    gateway = await startGateway({
      WORKERS: '2',
      ADMIN_PORT: '0',
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-operator-000000000000',
      SHUTDOWN_GRACE_MS: '60000',
    });
    await outputWhere(gateway, (output) => output.includes('"workers":2,"msg":"all workers ready"'));
  });

  afterAll(async () => {
    await gateway?.stop('SIGKILL');
    await sim?.close();
    await db?.drop();
  });

  it('serves requests on both workers, and /metrics on the admin port counts all of them', async () => {
    const { key } = await createKey(gateway, 'enterprise');
    const responses = await Promise.all(Array.from({ length: 40 }, () => ask(key)));
    expect(responses.map((r) => r.status)).toEqual(Array(40).fill(200));
    await Promise.all(responses.map((r) => r.text()));

    expect(await servedBy(gateway, responses.map((r) => r.headers.get('x-request-id')!))).toEqual([1, 2]);
    const value = await scrape(gateway);
    expect(value(`rosetta_requests_total{dialect="openai",model="${MODEL}",provider="openai",status="200"}`)).toBe(40);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('keeps a key at exactly its requests per minute across the workers', async () => {
    const { key } = await createKey(gateway, 'enterprise', { rpm: 10 });
    const responses = await Promise.all(Array.from({ length: 16 }, () => ask(key)));
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(6);
    await Promise.all(responses.map((r) => r.text()));
    expect(await servedBy(gateway, responses.map((r) => r.headers.get('x-request-id')!))).toEqual([1, 2]);
  });

  it('applies a plan change made through one worker on the other', async () => {
    expect((await adminCall(gateway, 'PUT', '/admin/plans/pair', { rpm: 100, tpm: null })).status).toBe(201);
    const { key } = await createKey(gateway, 'pair');
    expect((await adminCall(gateway, 'PUT', '/admin/plans/pair', { rpm: 3, tpm: null })).status).toBe(200);
    // The change reaches the other worker by Redis, as it reaches other replicas: wait until each
    // worker has answered with the new limit in its headers (a probe key of the same plan, so the
    // key under test keeps its minute; a fresh connection each time, so the primary hands them to
    // the workers in turn).
    const { key: probe } = await createKey(gateway, 'pair');
    const seenNew = new Set<number>();
    while (seenNew.size < 2) {
      const res = await fetch(`${gateway.url}/v1/key`, { headers: { authorization: `Bearer ${probe}`, connection: 'close' } });
      await res.text();
      const [worker] = await servedBy(gateway, [res.headers.get('x-request-id')!]);
      if (res.headers.get('x-ratelimit-limit-requests') === '3') seenNew.add(worker!);
    }
    // The count itself is in Redis, whichever worker serves each request.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask(key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('replaces a worker that dies, serving and scraping on the other meanwhile', async () => {
    const [victim, survivor] = workerPids(gateway.process.pid!);
    expect(survivor).toBeDefined();
    process.kill(victim!, 'SIGKILL');
    await outputWhere(gateway, (output) => output.includes('"signal":"SIGKILL","restartInMs":1000,"msg":"worker exited unexpectedly; replacing it"'));

    const { key } = await createKey(gateway, 'enterprise');
    expect((await ask(key)).status).toBe(200);
    expect((await scrape(gateway))(`rosetta_requests_total{dialect="openai",model="${MODEL}",provider="openai",status="200"}`)).toBeGreaterThan(0);

    await outputWhere(gateway, (output) => output.includes('"worker":3,"msg":"replacement worker ready"'));
    expect(workerPids(gateway.process.pid!)).toHaveLength(2);
    const responses = await Promise.all(Array.from({ length: 20 }, () => ask(key)));
    await Promise.all(responses.map((r) => r.text()));
    const served = await servedBy(gateway, responses.map((r) => r.headers.get('x-request-id')!));
    expect(served).toHaveLength(2);
    expect(served).toContain(3);
  });

  it('on SIGTERM to the primary, drains open streams on both workers, writes one ledger row each and exits 0', async () => {
    const { key } = await createKey(gateway, 'enterprise');
    const marker = 'workers-drain';
    sim.script({ match: marker, reply: { text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), tokensPerSecond: 20 } });
    const streams = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await ask(key, { stream: true, messages: [{ role: 'user', content: marker }] }, true);
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        await reader.read(); // the first chunk: the stream is open upstream
        return { id: res.headers.get('x-request-id')!, res, reader };
      }),
    );

    const exited = gateway.stop('SIGTERM');

    const bodies = await Promise.all(
      streams.map(async ({ reader }) => {
        let text = '';
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return text;
          text += decoder.decode(value, { stream: true });
        }
      }),
    );
    for (const body of bodies) expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(await exited).toBe(0);
    expect(gateway.output()).toMatch(/"exitCode":0,"msg":"all workers stopped"/);
    const ids = streams.map((s) => s.id);
    // Worker 3 replaced one of the first two above.
    expect(await servedBy(gateway, ids)).toHaveLength(2);
    const rows = await query<{ request_id: string; status: number }>(db.url, 'SELECT request_id, status FROM request_log WHERE request_id = ANY($1)', [ids]);
    expect(rows.map((r) => r.request_id).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => r.status === 200)).toBe(true);
  });
});

describe('WORKERS forced to one process', () => {
  const started: GatewayProcess[] = [];
  afterAll(async () => {
    await Promise.all(started.map((g) => g.stop()));
  });

  it('without REDIS_URL, says why once and serves from one process', async () => {
    const db = await createTestDatabase();
    try {
      const gateway = await startGateway({ WORKERS: '2', DATABASE_URL: db.url });
      started.push(gateway);
      expect(gateway.output().match(/running one process, not WORKERS=2 \(one per core unless set\): without REDIS_URL/g)).toHaveLength(1);
      expect(gateway.output()).not.toMatch(/starting workers|"worker":/);
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
      await gateway.stop();
    } finally {
      await db.drop();
    }
  });

  it('on the embedded database, says why once and serves from one process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rosetta-workers-'));
    try {
      const gateway = await startGateway({ WORKERS: '2', REDIS_URL: TEST_REDIS_URL, ROSETTA_DATA_DIR: dataDir });
      started.push(gateway);
      expect(gateway.output().match(/running one process, not WORKERS=2 \(one per core unless set\): the embedded database/g)).toHaveLength(1);
      expect(gateway.output()).not.toMatch(/starting workers|"worker":/);
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
      await gateway.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('WORKERS=2 receiving a second signal', () => {
  it('cuts the open streams on both workers but still writes every ledger row', async () => {
    const sim = await startSimulator();
    const db = await createTestDatabase();
    const env = { WORKERS: '2', DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000', SHUTDOWN_GRACE_MS: '60000' };
    const gateway = await startGateway(env);
    try {
      await outputWhere(gateway, (output) => output.includes('"msg":"all workers ready"'));
      const { key } = await createKey(gateway, 'enterprise');
      sim.script({ match: 'second-signal', reply: { text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), tokensPerSecond: 4 } });
      const streams = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const res = await fetch(`${gateway.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'second-signal' }] }),
          });
          const reader = res.body!.getReader();
          await reader.read();
          return { id: res.headers.get('x-request-id')!, reader };
        }),
      );
      const exited = new Promise<number | null>((resolve) => gateway.process.once('exit', resolve));

      gateway.process.kill('SIGTERM');
      await outputWhere(gateway, (output) => output.match(/"msg":"shutting down: draining open requests"/g)?.length === 2);
      // Signals within a second of the first are one stop request (DUPLICATE_SIGNAL_MS), so the second comes after it.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      gateway.process.kill('SIGTERM');

      const bodies = await Promise.all(
        streams.map(async ({ reader }) => {
          let text = '';
          for (;;) {
            const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
            if (done) return text;
            text += new TextDecoder().decode(value);
          }
        }),
      );
      expect(bodies.some((body) => body.includes('[DONE]'))).toBe(false);
      expect(await exited).toBe(0);
      expect(gateway.output()).toMatch(/"msg":"second signal: passing it on to the workers"/);
      const ids = streams.map((s) => s.id);
      const rows = await query<{ request_id: string }>(db.url, 'SELECT request_id FROM request_log WHERE request_id = ANY($1)', [ids]);
      expect(rows.map((r) => r.request_id).sort()).toEqual([...ids].sort());
    } finally {
      await gateway.stop('SIGKILL');
      await sim.close();
      await db.drop();
    }
  });
});

describe('WORKERS=2 stopped while starting', () => {
  it('exits 0 when SIGTERM arrives as the first worker listens: a worker not yet ready has nothing to drain', async () => {
    const db = await createTestDatabase();
    try {
      const gateway = await startGateway({ WORKERS: '2', DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL });
      expect(await gateway.stop('SIGTERM')).toBe(0);
      expect(gateway.output()).toMatch(/"exitCode":0,"msg":"all workers stopped"/);
    } finally {
      await db.drop();
    }
  });
});
