import { Inject, Injectable, type Provider } from '@nestjs/common';
import {
  EXTERNAL_CHECK_RUNNER,
  type ExternalCheck,
  type ExternalCheckContext,
  type ExternalCheckResult,
  type ExternalCheckRunner,
  type GuardrailStage,
} from '@rosetta/guardrails';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { ExecutorService } from '../executor.service';
import { RoutingService } from '../routing.service';
import { ModelCheckRunner } from './model-check-runner';
import { WebhookCheckRunner } from './webhook-check-runner';
import { WebhookTargets } from './webhook-url';

/**
 * The gateway's ExternalCheckRunner: webhook checks over HTTP behind the SSRF guard
 * (WEBHOOK_ALLOW_HOSTS), model checks through the executor. It never rejects: a failure of its own
 * is `unavailable: upstream_error` like any other, and the check's `fail` choice decides.
 */
@Injectable()
export class ExternalChecksRunnerService implements ExternalCheckRunner {
  private readonly webhooks: WebhookCheckRunner;
  private readonly models: ModelCheckRunner;

  constructor(routing: RoutingService, executor: ExecutorService, @Inject(ROSETTA_CONFIG) config: RosettaConfig) {
    this.webhooks = new WebhookCheckRunner(new WebhookTargets(config.webhookAllowHosts));
    this.models = new ModelCheckRunner(routing, executor);
  }

  async run(check: ExternalCheck, text: string, stage: GuardrailStage, context: ExternalCheckContext): Promise<ExternalCheckResult> {
    try {
      return check.check === 'webhook' ? await this.webhooks.run(check, text, stage, context) : await this.models.run(check, text, stage, context);
    } catch {
      return { verdict: { action: 'unavailable', reason: 'upstream_error' } };
    }
  }
}

/** Binds EXTERNAL_CHECK_RUNNER to the gateway's runner (in a module that can see RoutingModule's exports). */
export const EXTERNAL_CHECK_RUNNER_PROVIDER: Provider = { provide: EXTERNAL_CHECK_RUNNER, useExisting: ExternalChecksRunnerService };
