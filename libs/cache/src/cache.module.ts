import { Module } from '@nestjs/common';
import { ResponseCacheService } from './response-cache.service';

/** The response cache's store. Needs the global PlatformModule (ROSETTA_CONFIG, REDIS_CLIENT, APP_LOGGER). */
@Module({
  providers: [ResponseCacheService],
  exports: [ResponseCacheService],
})
export class CacheModule {}
