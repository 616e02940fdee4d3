import { Inject, Injectable } from '@nestjs/common';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { APP_LOGGER, REDIS_CLIENT, type AppLogger, type RedisClient } from '@rosetta/platform';
import type { AlertEvent } from './alert-event';
import { budgetEventId, budgetThresholdEvent, crossedThresholds, guardrailBlockedEvent, type BudgetAlertScope } from './alert-payloads';
import { AlertOutboxRepository } from './alert-outbox.repository';
import { ALERTS_CONFIG, type AlertsConfig } from './alerts-config';
import { HourlyCounter, hourStart } from './hourly-counter';
import { RecentIds } from './recent-ids';

/** What the data plane says when a guardrail blocks a request. */
export interface GuardrailBlock {
  keyId: string;
  teamId: string | null;
  /** The check that blocked: `pii`, `secrets`, `regex`, `webhook`, `model`. */
  check: string;
}

/** The invalidation bus message that wakes every replica's delivery loop. */
export const ALERTS_WAKE = { kind: 'alerts', id: '*' } as const;

/**
 * Raises alert events (ARCHITECTURE §9 "Governance"). Everything here is fire-and-forget: a
 * caller on the request path never waits, and the outbox insert happens only when an event
 * actually occurs — detection itself reads nothing (the figures come from where the caller
 * already has them).
 */
@Injectable()
export class AlertsService {
  private readonly raised = new RecentIds();
  private readonly blocks: HourlyCounter;

  constructor(
    private readonly outbox: AlertOutboxRepository,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Inject(ALERTS_CONFIG) private readonly config: AlertsConfig,
    @Inject(REDIS_CLIENT) redis: RedisClient | null,
  ) {
    this.blocks = new HourlyCounter(redis, 'rosetta:alerts:guardrail:');
  }

  /** Stores the event once across replicas and wakes the delivery loops; never throws, never waits. */
  raise(event: AlertEvent): void {
    if (!this.raised.first(event.id)) return;
    void this.store(event);
  }

  /** As `raise`, for callers that want to know whether it was stored (the daily summary). */
  async store(event: AlertEvent): Promise<boolean> {
    try {
      const deliveries = await this.outbox.raise(event);
      if (deliveries > 0) await this.bus.publish(ALERTS_WAKE);
      return true;
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), event: event.id }, 'alerts: event not stored');
      return false;
    }
  }

  /**
   * A budget's spend moved from `beforeUsd` to `afterUsd` (one settle, read atomically with its
   * charge): `budget.threshold` 50 and 80 when this charge crossed them. 100 is not raised here:
   * holds keep spend below the budget, so it is the first refusal that says it is used up.
   */
  budgetCharged(scope: BudgetAlertScope, beforeUsd: number, afterUsd: number): void {
    for (const threshold of crossedThresholds(scope.budgetUsd, beforeUsd, afterUsd)) this.raise(budgetThresholdEvent(scope, threshold, afterUsd));
  }

  /** A request was refused (402) for this budget: `budget.threshold` 100, once per budget and period. */
  budgetRefused(scope: BudgetAlertScope, usedUsd: number): void {
    // Checked before the payload is built: a refused budget is refused on every request.
    if (!this.raised.first(`${budgetEventId(scope, 100)}#seen`)) return;
    this.raise(budgetThresholdEvent(scope, 100, usedUsd));
  }

  /**
   * A guardrail blocked a request (the data plane calls this): counted per check and UTC hour
   * across replicas, and `guardrail.blocked` raised by the one call that takes the count past
   * ALERTS_GUARDRAIL_BLOCKED_PER_HOUR. Never waits, never throws.
   */
  guardrailBlocked(block: GuardrailBlock, now: number = Date.now()): void {
    const threshold = this.config.guardrailBlockedPerHour;
    this.blocks.add(block.check, now).then(
      (count) => {
        if (count === threshold + 1) this.raise(guardrailBlockedEvent({ check: block.check, hourStart: hourStart(now), blocked: count, threshold, keyId: block.keyId, teamId: block.teamId }));
      },
      (error: unknown) => this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'alerts: a guardrail block was not counted'),
    );
  }
}
