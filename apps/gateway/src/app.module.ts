import { type DynamicModule, Module } from '@nestjs/common';
import { AdminModule, SettingEntity } from '@rosetta/admin';
import { AlertsModule } from '@rosetta/alerts';
import { ApiKeyEntity, AuthModule, TeamEntity } from '@rosetta/auth';
import { DialectsModule } from '@rosetta/dialects';
import { LimitsModule, PlanEntity } from '@rosetta/limits';
import { PersistenceModule } from '@rosetta/persistence';
import { PlatformModule, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { EndpointEntity, ModelEntity, ProviderEntity } from '@rosetta/registry';
import { EndpointHealthPortModule } from '@rosetta/routing';
import { UsageModule } from '@rosetta/usage';
import { HealthController } from './health.controller';

@Module({})
export class AppModule {
  static forRoot(config: RosettaConfig, logger: AppLogger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        PersistenceModule.forRoot([ApiKeyEntity, TeamEntity, PlanEntity, SettingEntity, ProviderEntity, ModelEntity, EndpointEntity]),
        AuthModule,
        LimitsModule,
        EndpointHealthPortModule,
        UsageModule,
        AlertsModule,
        AdminModule,
        DialectsModule,
      ],
      controllers: [HealthController],
    };
  }
}
