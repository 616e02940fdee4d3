import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { PlanRepository } from './plan.repository';
import type { PlanRecord } from './plan.record';

/**
 * All plans in memory (there are a handful), reloaded whenever any replica changes one. The hot
 * path reads plans without a query.
 */
@Injectable()
export class PlanCacheService implements OnModuleInit {
  private plans = new Map<string, PlanRecord>();
  private reloading?: Promise<void>;
  /** A change arrived while a reload was in flight: that reload may have read the old row. */
  private stale = false;

  constructor(
    private readonly repository: PlanRepository,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
  ) {}

  async onModuleInit(): Promise<void> {
    this.bus.subscribe((message) => {
      if (message.kind === 'plan' || message.kind === 'reset') void this.reload();
    });
    await this.reload();
  }

  get(name: string): PlanRecord | undefined {
    return this.plans.get(name);
  }

  list(): PlanRecord[] {
    return [...this.plans.values()];
  }

  /** Re-reads the table here and tells every other replica to do the same. */
  async changed(name: string): Promise<void> {
    await this.reload();
    await this.bus.publish({ kind: 'plan', id: name });
  }

  private reload(): Promise<void> {
    if (this.reloading) {
      this.stale = true;
      return this.reloading;
    }
    this.reloading = this.repository
      .list()
      .then((rows) => {
        this.plans = new Map(rows.map((p) => [p.name, p]));
      })
      .catch(() => undefined)
      .finally(() => {
        this.reloading = undefined;
        if (this.stale) {
          this.stale = false;
          void this.reload();
        }
      });
    return this.reloading;
  }
}
