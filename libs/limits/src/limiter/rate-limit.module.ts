import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits.module';
import { RateLimitService } from './rate-limit.service';

/**
 * RateLimitService (one per process: the Redis store, or the in-process one without `REDIS_URL`).
 * The data plane counts every request against it (docs/decisions/0006); import it where tokens are
 * reserved and settled. Needs the global PlatformModule (REDIS_CLIENT, APP_LOGGER) and
 * PersistenceModule (for the plan cache).
 */
@Module({
  imports: [LimitsModule],
  providers: [RateLimitService],
  exports: [RateLimitService],
})
export class RateLimitModule {}
