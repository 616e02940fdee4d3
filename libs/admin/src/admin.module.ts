import { Module } from '@nestjs/common';
import { AdminAuthThrottle } from './session/admin-auth-throttle.service';
import { AuthModule } from '@rosetta/auth';
import { DialectsModule } from '@rosetta/dialects';
import { CacheModule } from '@rosetta/cache';
import { BudgetModule, LimitsModule } from '@rosetta/limits';
import { RegistryModule } from '@rosetta/registry';
import { EndpointHealthModule } from '@rosetta/routing';
import { AdminKeysController } from './admin-keys.controller';
import { AdminPlansController } from './admin-plans.controller';
import { AdminRegistryController } from './admin-registry.controller';
import { AdminRouteController } from './admin-route.controller';
import { AdminTeamsController } from './admin-teams.controller';
import { AdminTokenService } from './admin-token.service';
import { AdminUsageController } from './admin-usage.controller';
import { AdminWebhooksController } from './admin-webhooks.controller';
import { AdminGuard } from './admin.guard';
import { AdminAuditController } from './audit/admin-audit.controller';
import { AuditInterceptor } from './audit/audit.interceptor';
import { AuditRepository } from './audit/audit.repository';
import { AuditService } from './audit/audit.service';
import { DashboardController } from './dashboard/dashboard.controller';
import { MetricsController } from './metrics.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { AdminSessionController } from './session/admin-session.controller';
import { AdminSessionsController } from './session/admin-sessions.controller';
import { OidcService } from './session/oidc.service';
import { SettingRepository } from './setting.repository';
import { GuardrailsField } from './guardrails-field';

@Module({
  imports: [AuthModule, LimitsModule, RegistryModule, BudgetModule, EndpointHealthModule, DialectsModule, CacheModule],
  controllers: [
    AdminSessionController,
    AdminSessionsController,
    AdminKeysController,
    AdminTeamsController,
    AdminPlansController,
    AdminRegistryController,
    AdminUsageController,
    AdminRouteController,
    AdminAuditController,
    AdminWebhooksController,
    MetricsController,
    OpenApiController,
    DashboardController,
  ],
  providers: [SettingRepository, GuardrailsField, AdminTokenService, AdminGuard, AuditRepository, AuditService, AuditInterceptor, OidcService, AdminAuthThrottle],
})
export class AdminModule {}
