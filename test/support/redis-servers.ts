import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';

/**
 * What the loopback Redis topologies (redis-topology.ts) are made of: free ports, polling until a
 * server is ready, one-off commands, and a group of servers killed and removed together.
 */

export interface RedisAddress {
  host: string;
  port: number;
}

export const HOST = '127.0.0.1';
/** Starting a topology takes a few seconds; this much means it will not come up. */
export const READY_WITHIN_MS = 30_000;
const POLL_MS = 100;

/** A port free now whose cluster bus port (port + 10000) is free too. */
export async function freePort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await listenable(port)) && (await listenable(port + 10_000))) {
      taken.add(port);
      taken.add(port + 10_000);
      return port;
    }
  }
}

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** Polls `check` until it answers true; the error names what never became true. */
export async function waitUntil(what: string, check: () => Promise<boolean>, withinMs = READY_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${withinMs} ms${last instanceof Error ? ` (last error: ${last.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** One command on a fresh connection that does not retry (a poll asks again itself). */
export async function redisCommand(address: RedisAddress, command: string, ...args: (string | number)[]): Promise<unknown> {
  const client = new Redis({ ...address, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.call(command, ...args);
  } finally {
    client.disconnect();
  }
}

/** The servers of one topology and their directory; killed and removed together. */
export class ServerGroup {
  private readonly children: ChildProcess[] = [];
  private readonly onExit = (): void => this.children.forEach((child) => child.kill('SIGKILL'));

  constructor(readonly dir: string) {
    // A test run that dies leaves no servers behind.
    process.once('exit', this.onExit);
  }

  static async create(label: string): Promise<ServerGroup> {
    return new ServerGroup(await mkdtemp(join(tmpdir(), `rosetta-${label}-`)));
  }

  spawn(args: string[]): ChildProcess {
    const child = spawn('redis-server', args, { cwd: this.dir, stdio: ['ignore', 'ignore', 'inherit'] });
    this.children.push(child);
    return child;
  }

  async stop(): Promise<void> {
    process.removeListener('exit', this.onExit);
    await Promise.all(
      this.children.map((child) =>
        child.exitCode !== null || child.signalCode !== null ? undefined : new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
      ),
    );
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Runs `start` with this group; a failure stops what was started before it is rethrown. */
  async guard<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }
}

export const SERVER_ARGS = ['--bind', HOST, '--save', '', '--appendonly', 'no', '--daemonize', 'no'];

export async function answersPing(address: RedisAddress): Promise<boolean> {
  return (await redisCommand(address, 'PING')) === 'PONG';
}
