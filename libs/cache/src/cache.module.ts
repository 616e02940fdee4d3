import { Module } from '@nestjs/common';
import { ResponseCacheService } from './response-cache.service';
import { SemanticIndexService } from './semantic-index.service';

/** The response cache's store. Needs the global PlatformModule (ROSETTA_CONFIG, REDIS_CLIENT, APP_LOGGER) and the DataSource. */
@Module({
  providers: [ResponseCacheService, SemanticIndexService],
  exports: [ResponseCacheService, SemanticIndexService],
})
export class CacheModule {}
