import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { DataSource } from 'typeorm';
import { createDataSource, embeddedDatabasePath, migrate, type DatabaseOptions } from './data-source.factory';
import { INVALIDATION_BUS, LocalInvalidationBus, PgInvalidationBus, type InvalidationBus } from './invalidation-bus';

/**
 * The database (PostgreSQL from DATABASE_URL, else embedded PGlite), migrated before anything
 * else starts, and the invalidation bus caches use to stay fresh across replicas.
 */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
  ) {}

  static forRoot(entities: DatabaseOptions['entities']): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        {
          provide: DataSource,
          inject: [ROSETTA_CONFIG, APP_LOGGER],
          useFactory: (config: RosettaConfig, logger: AppLogger) => openDatabase(config, logger, entities),
        },
        {
          provide: INVALIDATION_BUS,
          inject: [ROSETTA_CONFIG, APP_LOGGER, DataSource],
          useFactory: async (config: RosettaConfig, logger: AppLogger, dataSource: DataSource): Promise<InvalidationBus> => {
            if (!config.databaseUrl) return new LocalInvalidationBus();
            const bus = new PgInvalidationBus(config.databaseUrl, (sql, params) => dataSource.query(sql, params), logger);
            await bus.start();
            return bus;
          },
        },
      ],
      exports: [DataSource, INVALIDATION_BUS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

async function openDatabase(config: RosettaConfig, logger: AppLogger, entities: DatabaseOptions['entities']): Promise<DataSource> {
  const dataSource = createDataSource({ url: config.databaseUrl, dataDir: config.dataDir, entities });
  try {
    await dataSource.initialize();
  } catch (error) {
    if (!config.databaseUrl) throw error;
    // Say which setting to check, without echoing the URL (it may hold a password).
    const { hostname, port, pathname } = new URL(config.databaseUrl);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot reach the database of DATABASE_URL (host ${hostname}, port ${port || 5432}, database ${pathname.slice(1) || '?'}): ${reason}`);
  }
  const applied = await migrate(dataSource);
  if (config.databaseUrl) {
    const { host, port, pathname } = new URL(config.databaseUrl);
    logger.info({ database: 'postgres', host, port, name: pathname.slice(1), migrationsApplied: applied }, 'database: PostgreSQL');
  } else {
    logger.info({ database: 'pglite', path: embeddedDatabasePath(config.dataDir), migrationsApplied: applied }, 'database: embedded PGlite (set DATABASE_URL to use PostgreSQL)');
  }
  return dataSource;
}
