import { Inject, Injectable, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { BudgetService, type HoldRef } from '@rosetta/limits';
import { APP_LOGGER, type AppLogger, type Counter, MetricsService, REDIS_CLIENT, type RedisClient } from '@rosetta/platform';
import { UsageRecorderService, type UsageRow } from '@rosetta/usage';
import { createHash, randomUUID } from 'node:crypto';
import { decodeRecord, encodeRecord, type InflightRecord } from './inflight-record';

/** A replica that has not said it is alive for this long is dead (its heartbeat key expired). */
export const DEAD_AFTER_MS = 15_000;
const HEARTBEAT_EVERY_MS = 5_000;
/** Every replica looks for dead ones this often: a death is found within DEAD_AFTER_MS + this. */
const SWEEP_EVERY_MS = 5_000;
/** Long enough to write one dead replica's rows; a sweeper that dies meanwhile frees it then. */
const CLAIM_MS = 60_000;
/** The in-flight hash outlives a replica gone for good long enough to be found. */
const RECORDS_TTL_S = 86_400;
/**
 * Recorded rows wait this long to go out together (one HSET per 10 ms per process): a row
 * recorded in the last 10 ms before a kill is recovered from its open record, as interrupted at
 * its reserved cost, rather than as answered. Open records cannot wait: each turn's go out at its
 * end, before the upstream calls they announce leave (a timer let a kill in the window lose a
 * request the upstream saw — the cluster test caught it).
 */
export const RECORDED_EVERY_MS = 10;

const alive = (replica: string): string => `rosetta:replica:{r:${replica}}`;
const records = (replica: string): string => `rosetta:inflight:{r:${replica}}`;
const claim = (replica: string): string => `rosetta:recovering:{r:${replica}}`;

/**
 * Nothing lost when a replica dies (ARCHITECTURE §9; docs/decisions/0028). Each request that may
 * reach an upstream is kept in Redis — in a hash of its replica's, as the ledger row it would get
 * if the replica died now — from its admission until its own row is in the database (from the
 * moment that row is recorded, the record is that row, with its real cost). Each replica
 * renews a heartbeat key; every replica sweeps for replicas whose heartbeat expired, and one of
 * them (by a claim) writes the dead one's rows (`interrupted`, at the reserved cost), charges their
 * budget holds at that cost, and forgets them. A row the dead replica did write is not written
 * again (the ledger's key), and a hold it did settle is not charged again.
 *
 * The writes are one HSET per event-loop turn for the requests admitted in it (sent before their
 * upstream calls leave), one per RECORDED_EVERY_MS for the rows recorded in them, and one HDEL
 * per ledger batch; nothing waits for them. Without Redis this does nothing.
 */
@Injectable()
export class InflightLedgerService implements OnModuleInit, OnApplicationShutdown {
  readonly replica = randomUUID();
  /** Open records of this turn: field, value, field, value… */
  private opening: string[] = [];
  /** Recorded rows of the next 10 ms, by request id (one written meanwhile is dropped). */
  private recording = new Map<string, string>();
  /** The budget hold of each request kept and not recorded yet, for its row's record. */
  private readonly holds = new Map<string, HoldRef | undefined>();
  private timers: NodeJS.Timeout[] = [];
  private failing = false;
  private sweeping = false;
  private readonly recovered?: Counter;
  /** The registry of this ledger's replicas (a deployment sharing the Redis has its own). */
  private registry = '';

  constructor(
    private readonly recorder: UsageRecorderService,
    private readonly budgets: BudgetService,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null = null,
    @Optional() metrics?: MetricsService,
  ) {
    this.recovered = metrics?.counter('rosetta_ledger_recovered_rows_total', 'Ledger rows this replica wrote for requests a dead replica had in flight (error_type interrupted).');
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    const ledger = createHash('sha256').update(await this.recorder.ledgerIdentity()).digest('hex').slice(0, 16);
    this.registry = `rosetta:replicas:${ledger}`;
    this.recorder.onRecorded((row) => this.recorded(row));
    this.recorder.onWritten((rows) => this.forget(rows));
    void this.heartbeat();
    this.timers = [setInterval(() => void this.heartbeat(), HEARTBEAT_EVERY_MS), setInterval(() => void this.sweep(), SWEEP_EVERY_MS)];
    for (const timer of this.timers) timer.unref();
  }

  /**
   * After the last ledger batch: a replica that wrote every row leaves the registry; one that could
   * not (the database is down) leaves its records for another replica to write.
   */
  async onApplicationShutdown(): Promise<void> {
    if (!this.redis) return;
    this.timers.forEach(clearInterval);
    await this.recorder.flush();
    await this.attempt(async (redis) => {
      const left = await redis.hlen(records(this.replica));
      await redis.del(alive(this.replica));
      if (left === 0) await redis.srem(this.registry, this.replica);
    });
  }

  /** Keeps the request until its ledger row is written; sent with this turn's others. */
  open(record: InflightRecord): void {
    if (!this.redis) return;
    this.holds.set(record.row.requestId, record.hold);
    if (this.opening.push(record.row.requestId, encodeRecord(record)) === 2) setImmediate(() => this.send(this.take()));
  }

  /**
   * A kept request's row is recorded (in memory, written with the next batch): what a survivor
   * writes for it is now that row, with its real cost, rather than the interrupted one.
   */
  private recorded(row: UsageRow): void {
    if (!this.holds.has(row.requestId)) return;
    const hold = this.holds.get(row.requestId);
    this.holds.delete(row.requestId);
    if (this.recording.size === 0) setTimeout(() => this.send(this.takeRecorded()), RECORDED_EVERY_MS);
    this.recording.set(row.requestId, encodeRecord({ row, hold }));
  }

  private take(): string[] {
    const fields = this.opening;
    this.opening = [];
    return fields;
  }

  private takeRecorded(): string[] {
    const fields = [...this.recording].flat();
    this.recording.clear();
    return fields;
  }

  private send(fields: string[]): void {
    if (fields.length > 0) void this.attempt((redis) => redis.hset(records(this.replica), ...fields));
  }

  private forget(rows: UsageRow[]): void {
    for (const row of rows) this.recording.delete(row.requestId);
    void this.attempt((redis) => redis.hdel(records(this.replica), ...rows.map((row) => row.requestId)));
  }

  private async heartbeat(): Promise<void> {
    await this.attempt(async (redis) => {
      await redis.set(alive(this.replica), String(Date.now()), 'PX', DEAD_AFTER_MS);
      await redis.sadd(this.registry, this.replica);
      await redis.expire(records(this.replica), RECORDS_TTL_S);
    });
  }

  /** Finds replicas whose heartbeat expired, and recovers each one this replica can claim. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const replicas = (await this.attempt((redis) => redis.smembers(this.registry))) ?? [];
      for (const replica of replicas) {
        if (replica === this.replica) continue;
        const claimed = await this.attempt(async (redis) => (await redis.exists(alive(replica))) === 0 && (await redis.set(claim(replica), this.replica, 'PX', CLAIM_MS, 'NX')) === 'OK');
        // Not recovered now (the database or Redis failed): the claim expires and a later sweep tries again.
        if (claimed) await this.recover(this.redis!, replica).catch((error: unknown) => this.logger.warn({ err: error instanceof Error ? error.message : String(error), replica }, 'ledger: a dead replica\'s in-flight requests not recorded yet; will retry'));
      }
    } finally {
      this.sweeping = false;
    }
  }

  /** Writes a dead replica's rows, charges their holds, then forgets them and the replica. */
  private async recover(redis: RedisClient, replica: string): Promise<void> {
    const now = Date.now();
    const found = Object.values(await redis.hgetall(records(replica)))
      .map((text) => decodeRecord(text, now))
      .filter((record): record is InflightRecord => record !== undefined);
    if (found.length > 0) {
      await this.recorder.writeRecovered(found.map((record) => record.row));
      for (const { row, hold } of found) if (hold) await this.budgets.recover(hold, row.costUsd);
      this.recovered?.inc([], found.length);
      this.logger.warn({ replica, rows: found.length }, 'ledger: recorded the in-flight requests of a replica that died, as interrupted');
    }
    await redis.del(records(replica));
    await redis.srem(this.registry, replica);
  }

  /** Runs a Redis call; a failure is logged once per outage and answers `undefined`. */
  private async attempt<T>(call: (redis: RedisClient) => Promise<T>): Promise<T | undefined> {
    try {
      const result = await call(this.redis!);
      this.failing = false;
      return result;
    } catch (error) {
      if (!this.failing) this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'ledger: in-flight records not kept in Redis; a replica lost now may lose its unwritten rows');
      this.failing = true;
      return undefined;
    }
  }
}
