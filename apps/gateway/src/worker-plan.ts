import type { RosettaConfig } from '@rosetta/platform';

export interface WorkerPlan {
  /** Gateway processes to run; 1 is today's single process, with no cluster primary. */
  count: number;
  /** Why fewer processes than WORKERS asked for run, to be logged once at start. */
  forcedBecause?: string;
}

/**
 * How many workers a replica runs. Workers share state only through Redis and PostgreSQL, as
 * replicas do, so where a piece of state would live in one process's memory or file the replica
 * stays one process: the in-memory limiter (no REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS) would let each worker admit a key's
 * whole limit, and the embedded PGlite database is a directory only one process may open.
 */
export function planWorkers(config: Pick<RosettaConfig, 'workers' | 'redis' | 'databaseUrl'>): WorkerPlan {
  if (config.workers <= 1) return { count: 1 };
  if (!config.databaseUrl) {
    return { count: 1, forcedBecause: `running one process, not WORKERS=${config.workers} (one per core unless set): the embedded database (no DATABASE_URL) can be opened by one process only` };
  }
  if (!config.redis) {
    return { count: 1, forcedBecause: `running one process, not WORKERS=${config.workers} (one per core unless set): without REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS rate limits are counted in memory, which workers would not share` };
  }
  return { count: config.workers };
}

const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * How long the primary waits before replacing a worker that died: one second after a crash,
 * doubling with each crash in a row (no worker became ready in between), at most thirty, so a
 * worker that dies at start does not spin the CPU the others need.
 */
export function restartDelayMs(crashesInARow: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, crashesInARow - 1));
}
