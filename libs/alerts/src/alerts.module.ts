import { Global, Module } from '@nestjs/common';
import { BudgetModule } from '@rosetta/limits';
import { EndpointHealthModule } from '@rosetta/routing';
import { AlertDeliveryService } from './alert-delivery.service';
import { AlertOutboxRepository } from './alert-outbox.repository';
import { ALERTS_CONFIG, alertsConfigFromEnv } from './alerts-config';
import { AlertsService } from './alerts.service';
import { BudgetAlertsService } from './budget-alerts.service';
import { CircuitAlertsService } from './circuit-alerts.service';
import { GUARDRAIL_BLOCK_ALERTS } from './guardrail-block-alerts';
import { SpendDailyService } from './spend-daily.service';
import { WebhookRepository } from './webhook.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Alerts by webhook (docs/guide/alerts.md): the webhooks, the outbox and its delivery loop, and
 * the watchers that raise events. Global so the data plane can reach AlertsService (guardrail
 * blocks) without importing this module. Needs the global PlatformModule, PersistenceModule and
 * UsageModule.
 */
@Global()
@Module({
  imports: [BudgetModule, EndpointHealthModule],
  providers: [
    { provide: ALERTS_CONFIG, useFactory: () => alertsConfigFromEnv() },
    AlertsService,
    AlertOutboxRepository,
    WebhookRepository,
    WebhooksService,
    AlertDeliveryService,
    BudgetAlertsService,
    CircuitAlertsService,
    SpendDailyService,
    GUARDRAIL_BLOCK_ALERTS,
  ],
  exports: [AlertsService, WebhooksService, ALERTS_CONFIG, GUARDRAIL_BLOCK_ALERTS],
})
export class AlertsModule {}
