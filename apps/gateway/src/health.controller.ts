import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { REDIS_CLIENT, type RedisClient } from '@rosetta/platform';
import { DataSource } from 'typeorm';

interface StatusResponse {
  status(code: number): unknown;
}

@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null,
  ) {}

  /** The process is up. */
  @Get('healthz')
  @HttpCode(200)
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The process can serve: the database answers, and Redis too when configured. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: StatusResponse): Promise<Record<string, string>> {
    const [database, redis] = await Promise.all([
      answered(this.dataSource.query('SELECT 1')),
      this.redis ? answered(this.redis.ping()) : Promise.resolve('not configured'),
    ]);
    const ready = database === 'ok' && redis !== 'unavailable';
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', database, redis };
  }
}

/** A probe answers within CHECK_MS, whatever a client does while its server is gone (a Cluster queues commands). */
const CHECK_MS = 2_000;

function answered(check: Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'unavailable'>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), CHECK_MS);
  });
  return Promise.race([check.then(() => 'ok' as const, () => 'unavailable' as const), late]).finally(() => clearTimeout(timer));
}
