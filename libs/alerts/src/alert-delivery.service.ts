import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { alertBody } from './alert-event';
import { AlertOutboxRepository, type AttemptOutcome, type ClaimedDelivery } from './alert-outbox.repository';
import { ALERTS_CONFIG, type AlertsConfig } from './alerts-config';
import { ALERTS_WAKE } from './alerts.service';
import { retryDelayMs } from './delivery-backoff';
import { sendWebhook, type SendResult } from './webhook-sender';
import { WebhookRepository } from './webhook.repository';

/** Deliveries one pass claims at most (and sends at once). */
const BATCH = 20;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The delivery loop, on every replica: claims due deliveries from the outbox (SKIP LOCKED, so
 * replicas share the work and never send one twice at once), POSTs each signed, and records the
 * attempt — delivered, retried later with backoff and jitter, or given up after the last attempt —
 * with its audit entry. It runs every ALERTS_POLL_MS and at once when an event is raised on any
 * replica (the invalidation bus). Nothing on the request path waits for it.
 */
@Injectable()
export class AlertDeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly outbox: AlertOutboxRepository,
    private readonly webhooks: WebhookRepository,
    @Inject(ALERTS_CONFIG) private readonly config: AlertsConfig,
    @Inject(ROSETTA_CONFIG) private readonly rosetta: RosettaConfig,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe((message) => {
      if (message.kind === ALERTS_WAKE.kind || message.kind === 'reset') this.wake();
    });
    void this.webhooks.resealSecrets().catch((error: unknown) => this.logger.warn({ err: String(error) }, 'alerts: webhook secrets not resealed'));
    this.timer = setInterval(() => this.wake(), this.config.pollMs);
    this.timer.unref();
    this.wake();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Runs a pass now, or right after the one running. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = undefined;
    });
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.stopped && (await this.pass()) === BATCH);
        if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
          this.lastPrune = Date.now();
          await this.outbox.prune();
        }
      } catch (error) {
        this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'alerts: delivery pass failed; retrying at the next poll');
      }
    } while (this.again && !this.stopped);
  }

  /** One batch: how many deliveries it claimed. */
  async pass(): Promise<number> {
    const claimed = await this.outbox.claim(BATCH, this.config.timeoutMs);
    await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    return claimed.length;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const secret = this.webhooks.openSecret(delivery.webhookId, delivery.sealedSecret);
    const result: SendResult =
      secret === undefined
        ? { ok: false, httpStatus: null, error: 'the signing secret cannot be opened (SECRETS_KEY changed?)', retryable: false }
        : await sendWebhook(delivery.url, alertBody({ id: delivery.eventId, event: delivery.event, text: delivery.text, data: delivery.data }), secret, {
            allowHosts: this.rosetta.webhookAllowHosts,
            timeoutMs: this.config.timeoutMs,
          });
    const outcome = this.outcome(delivery, result);
    await this.outbox.finish(delivery, outcome, {
      event: delivery.event,
      event_id: delivery.eventId,
      delivery_id: delivery.id,
      attempt: delivery.attempt,
      outcome: outcome.status === 'pending' ? 'retry' : outcome.status,
      http_status: result.httpStatus,
      error: result.error,
      ...(outcome.retryInMs === undefined ? {} : { retry_in_ms: outcome.retryInMs }),
    });
    if (outcome.status === 'failed') this.logger.warn({ webhook: delivery.webhookId, event: delivery.eventId, attempts: delivery.attempt, error: result.error }, 'alerts: delivery given up');
  }

  private outcome(delivery: ClaimedDelivery, result: SendResult): AttemptOutcome {
    if (result.ok) return { status: 'delivered', httpStatus: result.httpStatus, error: null };
    const retryInMs = result.retryable ? retryDelayMs(delivery.attempt, this.config.retry) : undefined;
    if (retryInMs === undefined) return { status: 'failed', httpStatus: result.httpStatus, error: result.error };
    return { status: 'pending', httpStatus: result.httpStatus, error: result.error, retryInMs };
  }
}
