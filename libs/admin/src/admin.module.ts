import { Module } from '@nestjs/common';
import { AuthModule } from '@rosetta/auth';
import { BudgetModule, LimitsModule } from '@rosetta/limits';
import { RegistryModule } from '@rosetta/registry';
import { AdminRegistryController } from './admin-registry.controller';
import { AdminUsageController } from './admin-usage.controller';
import { AdminKeysController } from './admin-keys.controller';
import { AdminPlansController } from './admin-plans.controller';
import { AdminTeamsController } from './admin-teams.controller';
import { AdminGuard } from './admin.guard';
import { AdminTokenService } from './admin-token.service';
import { MetricsController } from './metrics.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { SettingRepository } from './setting.repository';

@Module({
  imports: [AuthModule, LimitsModule, RegistryModule, BudgetModule],
  controllers: [AdminKeysController, AdminTeamsController, AdminPlansController, AdminRegistryController, AdminUsageController, MetricsController, OpenApiController],
  providers: [SettingRepository, AdminTokenService, AdminGuard],
})
export class AdminModule {}
