import type { RedisClient } from '@rosetta/platform';

const HOUR_MS = 3_600_000;

/** The UTC hour `now` falls in. */
export function hourStart(now: number): Date {
  return new Date(Math.floor(now / HOUR_MS) * HOUR_MS);
}

/**
 * Counts occurrences per name and UTC hour, across replicas with Redis (one INCR on one key, so
 * exactly one caller sees each value) and in this process without it (one replica). `add` answers
 * the count after this occurrence.
 */
export class HourlyCounter {
  private readonly local = new Map<string, number>();
  private localHour = 0;

  constructor(
    private readonly redis: RedisClient | null,
    private readonly prefix: string,
  ) {}

  async add(name: string, now: number): Promise<number> {
    const hour = hourStart(now).getTime();
    if (!this.redis) return this.addLocal(name, hour);
    // The name in a hash tag: one key, one slot, on a cluster too.
    const key = `${this.prefix}{${name}}:${hour}`;
    const replies = await this.redis.multi().incr(key).pexpire(key, 2 * HOUR_MS).exec();
    const count = replies?.[0]?.[1];
    if (typeof count !== 'number') throw new Error('the hourly count was not answered');
    return count;
  }

  private addLocal(name: string, hour: number): number {
    if (hour !== this.localHour) {
      this.local.clear();
      this.localHour = hour;
    }
    const count = (this.local.get(name) ?? 0) + 1;
    this.local.set(name, count);
    return count;
  }
}
