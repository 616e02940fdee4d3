import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

/** The real Redis the unit suite runs against. */
export const TEST_REDIS_URL = process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other run (or concurrent suite) shares. */
export function uniquePrefix(): string {
  return `rosetta:test:rl:${process.pid}:${randomUUID().slice(0, 8)}:`;
}

/** A client like the gateway's shared one: fails fast rather than queueing forever. */
export function connect(url: string = TEST_REDIS_URL, overrides: Record<string, unknown> = {}): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 100, 500),
    disconnectTimeout: 100,
    ...overrides,
  });
  client.on('error', () => undefined);
  return client;
}

/** Deletes every key under the prefix. */
export async function removeKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== '0');
}

export async function countKeys(client: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    count += keys.length;
  } while (cursor !== '0');
  return count;
}

/** What a client sent, as counted by countCommands. */
export interface CommandLog {
  /** Command names in the order they were sent (`evalsha` for a script). */
  commands: string[];
  /**
   * Times the client went from nothing in flight to a command sent: for one caller awaiting in
   * turn, the round trips it waited for (commands written together count once).
   */
  roundTrips: number;
  reset(): void;
  /** Holds every command sent from now on, unsent, until `release` (a Redis that has not answered yet). */
  hold(): void;
  release(): void;
}

type SendCommand = Redis['sendCommand'];

/** Wraps the client's sendCommand to count what it sends (no MONITOR: only this client's commands). */
export function countCommands(client: Redis): CommandLog {
  const send: SendCommand = client.sendCommand.bind(client);
  let inFlight = 0;
  let held: Array<() => void> | undefined;
  const log: CommandLog = {
    commands: [],
    roundTrips: 0,
    reset: () => {
      log.commands = [];
      log.roundTrips = 0;
    },
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const go of waiting) go();
    },
  };
  client.sendCommand = ((command, stream) => {
    log.commands.push(command.name);
    if (inFlight === 0) log.roundTrips++;
    inFlight++;
    const done = (): void => {
      inFlight--;
    };
    command.promise.then(done, done);
    if (!held) return send(command, stream);
    held.push(() => void send(command, stream));
    return command.promise;
  }) as SendCommand;
  return log;
}
