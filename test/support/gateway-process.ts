import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface GatewayProcess {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the process wrote, for assertions on logs. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns the compiled gateway (`dist/`, built by the global setup) on an ephemeral port and waits
 * for its `listening` log line. Environment starts empty of provider credentials.
 */
export async function startGateway(env: Record<string, string | undefined>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', join(ROOT, 'dist/apps/gateway/src/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start in time:\n${output}`)), 45_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with code ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** Calls the admin API of a gateway. */
export async function adminCall(gateway: { url: string }, method: string, path: string, body?: unknown, token = TEST_ADMIN_TOKEN): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function createKey(gateway: { url: string }, plan = 'pro', extra: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const res = await adminCall(gateway, 'POST', '/admin/keys', { name: `test-${plan}`, plan, ...extra });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
