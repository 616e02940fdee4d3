import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
/** SECRETS_KEY for test gateways (64 hex digits), so provider secrets can be stored on PostgreSQL. */
export const TEST_SECRETS_KEY = '3f'.repeat(32);

export interface GatewayProcess {
  url: string;
  port: number;
  /** Where the admin API answers: the ADMIN_PORT listener when the gateway has one, else `url`. */
  adminUrl: string;
  process: ChildProcess;
  /** Everything the process wrote, for assertions on logs. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How to run the gateway: by default the repository's `dist/` (see runtime-layout for another tree). */
export interface GatewayLaunch {
  cwd: string;
  /** Arguments after the node executable. */
  args: string[];
}

const REPOSITORY_BUILD: GatewayLaunch = { cwd: ROOT, args: ['--enable-source-maps', join(ROOT, 'dist/apps/gateway/src/main.js')] };

/**
 * Spawns the compiled gateway (`dist/`, built by the global setup) on an ephemeral port and waits
 * for its `listening` log line. Environment starts empty of provider credentials.
 */
export async function startGateway(env: Record<string, string | undefined>, launch: GatewayLaunch = REPOSITORY_BUILD): Promise<GatewayProcess> {
  const child = spawn(process.execPath, launch.args, {
    cwd: launch.cwd,
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SECRETS_KEY: TEST_SECRETS_KEY,
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
  // The admin listener (ADMIN_PORT) is up and logged before the data plane's `listening` line.
  const adminPort = /"port":(\d+)[^\n]*"msg":"admin surface listening"/.exec(output)?.[1];
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    adminUrl: adminPort === undefined ? url : `http://127.0.0.1:${adminPort}`,
    process: child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        // Gone already (it exited, or a test killed it): nothing to wait for.
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** Calls the admin API of a gateway (on its admin port when it has one). */
export async function adminCall(gateway: { url: string; adminUrl?: string }, method: string, path: string, body?: unknown, token = TEST_ADMIN_TOKEN): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gateway.adminUrl ?? gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function createKey(gateway: { url: string; adminUrl?: string }, plan = 'pro', extra: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const res = await adminCall(gateway, 'POST', '/admin/keys', { name: `test-${plan}`, plan, ...extra });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
