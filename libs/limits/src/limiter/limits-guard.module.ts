import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { LimitsModule } from '../limits.module';
import { PlanThrottlerGuard, planRequestLimit, RateLimitThrottlerStorage, REQUESTS_THROTTLER } from './plan-throttler.guard';
import { RateLimitService } from './rate-limit.service';

/**
 * RateLimitService (one per process: the Redis store, or the in-process one without `REDIS_URL`).
 * Import it where tokens are reserved and settled. Needs the global PlatformModule (REDIS_CLIENT,
 * APP_LOGGER) and PersistenceModule (for the plan cache).
 */
@Module({
  imports: [LimitsModule],
  providers: [RateLimitService],
  exports: [RateLimitService],
})
export class RateLimitModule {}

/** The throttler options: one `rpm` throttler, limit resolved per request from the key's plan. */
export function planThrottlerOptions(limits: RateLimitService): ThrottlerModuleOptions {
  return {
    throttlers: [{ name: REQUESTS_THROTTLER, ttl: limits.windowMs, limit: (context) => planRequestLimit(limits, context) }],
    storage: new RateLimitThrottlerStorage(limits.store),
    // The guard writes the x-ratelimit-*-requests/-tokens headers itself.
    setHeaders: false,
  };
}

/**
 * The global RPM guard (PlanThrottlerGuard, an APP_GUARD) and the throttler it runs on. Import it
 * in AppModule AFTER AuthModule: global guards run in registration order, and this one needs
 * `req.apiKey` from ApiKeyGuard.
 */
@Module({
  imports: [
    RateLimitModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitModule],
      inject: [RateLimitService],
      useFactory: planThrottlerOptions,
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: PlanThrottlerGuard }],
  exports: [RateLimitModule],
})
export class LimitsGuardModule {}
