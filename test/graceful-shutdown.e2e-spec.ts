import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { adminCall, TEST_ADMIN_TOKEN } from './support/gateway-process';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

const ROOT = join(__dirname, '..');
const STREAMS = 8;

interface Launched {
  child: ChildProcess;
  gateway: string;
  simulator: string;
  exited: Promise<number | null>;
}

/**
 * `npm start` as a person runs it, in a process group of its own so the test can signal the whole
 * group the way a terminal's Ctrl-C or systemd does. No provider keys: the bundled simulator serves.
 */
async function launch(databaseUrl: string, extraEnv: Record<string, string>): Promise<Launched> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.js')], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '60000', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const urls = await new Promise<{ gateway: string; simulator: string }>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const simulator = /"msg":"simulator listening","url":"([^"]+)"/.exec(output)?.[1];
      const port = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output)?.[1];
      const workersReady = extraEnv['WORKERS'] === undefined || output.includes('"msg":"all workers ready"');
      if (simulator && port && workersReady) resolve({ gateway: `http://127.0.0.1:${port}`, simulator });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return { child, exited, ...urls };
}

/** Opens a stream and resolves once its first chunk has arrived, with a reader for the rest. */
async function openStream(gateway: string, key: string, marker: string): Promise<{ id: string; rest: () => Promise<string> }> {
  const res = await fetch(`${gateway}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: marker }] }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value, { stream: true });
  return {
    id: res.headers.get('x-request-id')!,
    rest: async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}

/** The third case runs a primary and two workers (WORKERS with PostgreSQL and Redis): the group signal reaches all three. */
describe.each([
  ['SIGTERM', '', {}],
  ['SIGINT', '', {}],
  ['SIGTERM', ' with WORKERS=2', { WORKERS: '2', REDIS_URL: TEST_REDIS_URL }],
] as const)('npm start receiving a group %s%s', (signal, _, extraEnv) => {
  let db: { url: string; drop(): Promise<void> };
  let launched: Launched | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    if (launched?.child.exitCode === null) process.kill(-launched.child.pid!, 'SIGKILL');
    await db.drop();
  });

  it('drains every open stream to its end and writes every ledger row', async () => {
    launched = await launch(db.url, extraEnv);
    const { gateway, simulator } = launched;
    const created = await adminCall({ url: gateway }, 'POST', '/admin/keys', { name: 'drain', plan: 'enterprise' });
    expect(created.status).toBe(201);
    const marker = `drain-${signal}`;
    // Slow enough that every stream is still open when the signal arrives.
    const script = await fetch(`${simulator}/_sim/scripts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: marker, reply: { text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), tokensPerSecond: 20 } }),
    });
    expect(script.status).toBe(201);
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(gateway, created.body.key, marker)));

    process.kill(-launched.child.pid!, signal);

    const bodies = await Promise.all(streams.map((s) => s.rest()));
    for (const body of bodies) {
      expect(body).toContain('word39');
      expect(body).toMatch(/"finish_reason":"stop"/);
      expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    }
    expect(await launched.exited).toBe(0);
    const rows = await query<{ request_id: string; status: number; error_type: string | null }>(
      db.url,
      'SELECT request_id, status, error_type FROM request_log WHERE request_id = ANY($1)',
      [streams.map((s) => s.id)],
    );
    expect(rows).toHaveLength(STREAMS);
    expect(rows.every((r) => r.status === 200 && r.error_type === null)).toBe(true);
  });
});

describe('npm start whose drain runs out of time', () => {
  let db: { url: string; drop(): Promise<void> };
  let launched: Launched | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    if (launched?.child.exitCode === null) process.kill(-launched.child.pid!, 'SIGKILL');
    await db.drop();
  });

  it('ends each open stream with its in-stream error and records server_shutdown, not a client that left', async () => {
    launched = await launch(db.url, { SHUTDOWN_GRACE_MS: '300' });
    const { gateway, simulator } = launched;
    const created = await adminCall({ url: gateway }, 'POST', '/admin/keys', { name: 'forced', plan: 'enterprise' });
    const marker = 'forced-stop';
    // Far slower than the grace period: every stream is still open when it runs out.
    await fetch(`${simulator}/_sim/scripts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: marker, reply: { text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), tokensPerSecond: 2 } }),
    });
    const streams = await Promise.all(Array.from({ length: 4 }, () => openStream(gateway, created.body.key, marker)));

    process.kill(-launched.child.pid!, 'SIGTERM');

    const bodies = await Promise.all(streams.map((s) => s.rest()));
    for (const body of bodies) {
      expect(body).not.toContain('word39');
      expect(body).toContain('"type":"overloaded_error"');
      expect(body).toContain('The gateway is shutting down and ended this request before its answer was complete; send it again');
    }
    expect(await launched.exited).toBe(0);
    const rows = await query<{ status: number; error_type: string | null; input_tokens: number }>(
      db.url,
      'SELECT status, error_type, input_tokens FROM request_log WHERE request_id = ANY($1)',
      [streams.map((s) => s.id)],
    );
    expect(rows.map((r) => [r.status, r.error_type, r.input_tokens > 0])).toEqual(streams.map(() => [200, 'server_shutdown', true]));
  });
});
