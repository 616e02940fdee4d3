import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOST, freePort, waitUntil } from './redis-servers';

/**
 * deploy/nginx.conf run for real with Debian's nginx, as a child process on loopback in front of
 * replicas on loopback ports. Only what cannot hold outside Docker changes: the upstream's one
 * `server gateway:8080` line becomes one line per replica (same parameters, minus `resolve`), it
 * listens on a free loopback port, and writes its files (pid, logs, temp) in its own directory.
 * For the tests' eyes only, every response names the replica that answered it
 * (`x-rosetta-upstream`, which production must not show) and each request is logged with the
 * caller's x-request-id and the replicas nginx tried.
 */

const ROOT = join(__dirname, '..', '..');
export const NGINX_CONF = join(ROOT, 'deploy', 'nginx.conf');
/** Debian's path (root's PATH has /usr/sbin, a user's may not). */
const NGINX_BIN = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
export const UPSTREAM_HEADER = 'x-rosetta-upstream';

export interface AccessLogEntry {
  /** The caller's x-request-id. */
  id: string;
  /** Every replica nginx tried, in order (`host:port`); the last one answered. */
  upstreams: string[];
  status: number;
}

export interface NginxIngress {
  url: string;
  port: number;
  /** Requests nginx has finished (a request is logged when its response ends or breaks). */
  accessLog(): Promise<AccessLogEntry[]>;
  stop(): Promise<void>;
}

/** Replaces the one line `pattern` matches; a template that drifted fails loudly, not silently. */
function replaceOnce(text: string, pattern: RegExp, replace: (match: RegExpExecArray) => string): string {
  const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
  const matches = [...text.matchAll(global)];
  if (matches.length !== 1) throw new Error(`deploy/nginx.conf: expected one line matching ${pattern}, found ${matches.length}`);
  const match = matches[0]! as RegExpExecArray;
  return text.slice(0, match.index) + replace(match) + text.slice(match.index + match[0].length);
}

/** deploy/nginx.conf for loopback: `upstreams` are the replicas' ports, `dir` holds every file. */
export function renderIngressConfig(template: string, options: { port: number; upstreams: number[]; dir: string }): string {
  let conf = replaceOnce(template, /^(\s*)server gateway:8080 resolve((?: [^;\s]+)*);$/m, ([, indent, params]) =>
    options.upstreams.map((port) => `${indent}server ${HOST}:${port}${params};`).join('\n'),
  );
  conf = replaceOnce(conf, /^(\s*)listen 8080;$/m, ([, indent]) => `${indent}listen ${HOST}:${options.port};`);
  return replaceOnce(conf, /^(\s*)access_log off;$/m, ([, indent]) =>
    [
      `log_format replicas escape=json '{"id":"$http_x_request_id","upstreams":"$upstream_addr","status":$status}';`,
      `access_log ${join(options.dir, 'access.log')} replicas;`,
      `add_header ${UPSTREAM_HEADER} $upstream_addr always;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${join(options.dir, `${kind}-temp`)};`),
    ].map((line) => `${indent}${line}`).join('\n'),
  );
}

function parseAccessLog(text: string): AccessLogEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const entry = JSON.parse(line) as { id: string; upstreams: string; status: number };
      return { id: entry.id, upstreams: entry.upstreams.split(/, | : /).filter((a) => a !== '' && a !== '-'), status: entry.status };
    });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** nginx with deploy/nginx.conf in front of the replicas on `upstreams`; resolves once it routes. */
export async function startIngress(upstreams: number[]): Promise<NginxIngress> {
  const dir = await mkdtemp(join(tmpdir(), 'rosetta-nginx-'));
  // Run as root, nginx's workers drop to nobody, who must reach the temp directories.
  await chmod(dir, 0o755);
  const port = await freePort(new Set(upstreams));
  const conf = join(dir, 'nginx.conf');
  await writeFile(conf, renderIngressConfig(await readFile(NGINX_CONF, 'utf8'), { port, upstreams, dir }));
  const errorLog = join(dir, 'error.log');
  const child = spawn(NGINX_BIN, ['-p', `${dir}/`, '-c', conf, '-e', errorLog, '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const onExit = (): boolean => child.kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', onExit);
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://${HOST}:${port}`;
  try {
    await waitUntil(`nginx routing on ${port}`, async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${await readFile(errorLog, 'utf8').catch(() => '')}`);
      return (await fetch(`${url}/healthz`)).ok;
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, accessLog: async () => parseAccessLog(await readFile(join(dir, 'access.log'), 'utf8').catch(() => '')), stop };
}
