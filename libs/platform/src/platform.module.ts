import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { RosettaConfig } from './config';
import { ROSETTA_CONFIG } from './config';
import { APP_LOGGER, type AppLogger } from './logger';
import { MetricsService } from './metrics.service';
import { REDIS_CLIENT, createRedisClient } from './redis';
import { SECRET_BOX, createSecretBox, type SecretBox } from './secret-box';
import { TracingService } from './tracing/tracing.service';

/** Configuration, the logger, the optional Redis client, metrics, tracing and the secret box, available everywhere. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: RosettaConfig, logger: AppLogger): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: ROSETTA_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: logger },
        { provide: REDIS_CLIENT, useFactory: () => (config.redis ? createRedisClient(config.redis, logger) : null) },
        MetricsService,
        { provide: SECRET_BOX, useFactory: () => announceKeyFile(createSecretBox(config.secretKeys, config.databaseUrl ? undefined : { dataDir: config.dataDir }), logger) },
        { provide: TracingService, useFactory: () => TracingService.start(config.tracing, logger) },
      ],
      exports: [ROSETTA_CONFIG, APP_LOGGER, REDIS_CLIENT, MetricsService, TracingService, SECRET_BOX],
    };
  }
}

/** A generated key lives on disk beside the embedded database: say where, at every start, so a backup of it is treated as secret. */
function announceKeyFile(box: SecretBox, logger: AppLogger): SecretBox {
  if (box.keyFile) {
    logger.warn(
      { keyFile: box.keyFile },
      'provider secrets are encrypted with a generated key kept in this file, beside the embedded database: anyone with a copy of ROSETTA_DATA_DIR can read them; set SECRETS_KEY to keep the key elsewhere',
    );
  }
  return box;
}
