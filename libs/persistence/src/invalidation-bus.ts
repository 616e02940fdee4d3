import { EventEmitter } from 'node:events';
import { Client } from 'pg';

/**
 * Tells every replica that a cached record changed (a key revoked, a plan edited). Caches subscribe
 * and drop what they hold; `reset` means messages may have been missed, so drop everything.
 */
export interface InvalidationMessage {
  kind: string;
  id: string;
}

export type InvalidationHandler = (message: InvalidationMessage | { kind: 'reset' }) => void;

export interface InvalidationBus {
  publish(message: InvalidationMessage): Promise<void>;
  subscribe(handler: InvalidationHandler): void;
  close(): Promise<void>;
}

export const INVALIDATION_BUS = Symbol('INVALIDATION_BUS');
export const INVALIDATION_CHANNEL = 'rosetta_invalidate';

/** One process (the embedded database): delivery is a local event. */
export class LocalInvalidationBus implements InvalidationBus {
  private readonly events = new EventEmitter();

  async publish(message: InvalidationMessage): Promise<void> {
    this.events.emit('message', message);
  }
  subscribe(handler: InvalidationHandler): void {
    this.events.on('message', handler);
  }
  async close(): Promise<void> {
    this.events.removeAllListeners();
  }
}

export interface PgBusLogger {
  warn(obj: object, msg: string): void;
}

/**
 * PostgreSQL LISTEN/NOTIFY on a dedicated connection: every replica shares the database, so
 * invalidation needs no extra infrastructure. NOTIFY is delivered within milliseconds; if the
 * listening connection drops, it reconnects and emits `reset`.
 */
export class PgInvalidationBus implements InvalidationBus {
  private readonly handlers: InvalidationHandler[] = [];
  private client?: Client;
  private closed = false;
  private retryTimer?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly publishVia: (sql: string, params: unknown[]) => Promise<unknown>,
    private readonly logger?: PgBusLogger,
  ) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.url });
    client.on('notification', (n) => this.deliver(n.payload));
    client.on('error', (error) => this.reconnect(error));
    client.on('end', () => this.reconnect(new Error('connection ended')));
    await client.connect();
    await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    this.client = client;
  }

  async publish(message: InvalidationMessage): Promise<void> {
    await this.publishVia('SELECT pg_notify($1, $2)', [INVALIDATION_CHANNEL, JSON.stringify(message)]);
  }

  subscribe(handler: InvalidationHandler): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private deliver(payload: string | undefined): void {
    if (!payload) return;
    let message: InvalidationMessage;
    try {
      message = JSON.parse(payload) as InvalidationMessage;
    } catch {
      return;
    }
    for (const handler of this.handlers) handler(message);
  }

  private reconnect(error: Error): void {
    if (this.closed || !this.client) return;
    this.logger?.warn({ err: error.message }, 'invalidation listener lost its connection; reconnecting');
    const old = this.client;
    this.client = undefined;
    old.removeAllListeners();
    old.end().catch(() => undefined);
    this.retryTimer = setTimeout(() => {
      this.start()
        .then(() => this.handlers.forEach((h) => h({ kind: 'reset' })))
        .catch((e: Error) => {
          this.client = old; // keep a handle so the next failure schedules another try
          this.reconnect(e);
        });
    }, 500);
  }
}
