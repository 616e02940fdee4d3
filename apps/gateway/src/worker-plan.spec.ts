import { loadConfig } from '@rosetta/platform';
import { availableParallelism } from 'node:os';
import { planWorkers, restartDelayMs } from './worker-plan';

const SHARED = { databaseUrl: 'postgres://db/rosetta', redis: { kind: 'url' as const, url: 'redis://redis:6379' } };

describe('planWorkers', () => {
  it('runs as many workers as asked when state is shared through PostgreSQL and Redis', () => {
    expect(planWorkers({ workers: 4, ...SHARED })).toEqual({ count: 4 });
  });

  it('takes WORKERS=1 as one process, with nothing to explain', () => {
    expect(planWorkers({ workers: 1, ...SHARED })).toEqual({ count: 1 });
    expect(planWorkers({ workers: 1, databaseUrl: undefined, redis: undefined })).toEqual({ count: 1 });
  });

  it('forces one process on the embedded database, saying why', () => {
    expect(planWorkers({ workers: 8, databaseUrl: undefined, redis: SHARED.redis })).toEqual({
      count: 1,
      forcedBecause: 'running one process, not WORKERS=8 (one per core unless set): the embedded database (no DATABASE_URL) can be opened by one process only',
    });
  });

  it('forces one process without Redis, whose in-memory limits workers would not share', () => {
    expect(planWorkers({ workers: 2, databaseUrl: SHARED.databaseUrl, redis: undefined })).toEqual({
      count: 1,
      forcedBecause: 'running one process, not WORKERS=2 (one per core unless set): without REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS rate limits are counted in memory, which workers would not share',
    });
  });

  it('shares state through a Redis Cluster or a Sentinel-managed master as through REDIS_URL', () => {
    for (const env of [{ REDIS_CLUSTER_NODES: 'redis-0:6379,redis-1:6379' }, { REDIS_SENTINELS: 'sentinel-0:26379', REDIS_SENTINEL_NAME: 'rosetta' }]) {
      const config = loadConfig({ WORKERS: '4', DATABASE_URL: SHARED.databaseUrl, ...env });
      expect(planWorkers(config)).toEqual({ count: 4 });
    }
  });

  it('reads WORKERS from the environment, defaulting to the available parallelism', () => {
    expect(loadConfig({}).workers).toBe(availableParallelism());
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ WORKERS: 'all' })).toThrow(/WORKERS/);
  });
});

describe('restartDelayMs', () => {
  it('doubles from one second with each crash in a row, up to thirty', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
