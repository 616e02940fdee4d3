import { loadConfig } from '@rosetta/platform';
import { availableParallelism } from 'node:os';
import { planWorkers, restartDelayMs } from './worker-plan';

const SHARED = { databaseUrl: 'postgres://db/rosetta', redisUrl: 'redis://redis:6379' };

describe('planWorkers', () => {
  it('runs as many workers as asked when state is shared through PostgreSQL and Redis', () => {
    expect(planWorkers({ workers: 4, ...SHARED })).toEqual({ count: 4 });
  });

  it('takes WORKERS=1 as one process, with nothing to explain', () => {
    expect(planWorkers({ workers: 1, ...SHARED })).toEqual({ count: 1 });
    expect(planWorkers({ workers: 1, databaseUrl: undefined, redisUrl: undefined })).toEqual({ count: 1 });
  });

  it('forces one process on the embedded database, saying why', () => {
    expect(planWorkers({ workers: 8, databaseUrl: undefined, redisUrl: SHARED.redisUrl })).toEqual({
      count: 1,
      forcedBecause: 'running one process, not WORKERS=8 (one per core unless set): the embedded database (no DATABASE_URL) can be opened by one process only',
    });
  });

  it('forces one process without Redis, whose in-memory limits workers would not share', () => {
    expect(planWorkers({ workers: 2, databaseUrl: SHARED.databaseUrl, redisUrl: undefined })).toEqual({
      count: 1,
      forcedBecause: 'running one process, not WORKERS=2 (one per core unless set): without REDIS_URL rate limits are counted in memory, which workers would not share',
    });
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
