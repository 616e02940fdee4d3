import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { afterCommit, INVALIDATION_BUS, onRollback, ReloadingTable, type InvalidationBus } from '@rosetta/persistence';
import { PlanRepository } from './plan.repository';
import type { PlanRecord } from './plan.record';

/**
 * All plans in memory (there are a handful), reloaded whenever any replica changes one. The hot
 * path reads plans without a query.
 */
@Injectable()
export class PlanCacheService implements OnModuleInit {
  private readonly table: ReloadingTable<string, PlanRecord>;

  constructor(
    private readonly repository: PlanRepository,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
  ) {
    this.table = new ReloadingTable(() => this.repository.list(), (row) => row.name);
  }

  async onModuleInit(): Promise<void> {
    this.bus.subscribe((message) => {
      if (message.kind === 'plan' || message.kind === 'reset') void this.table.reload();
    });
    await this.table.reload();
  }

  get(name: string): PlanRecord | undefined {
    return this.table.get(name);
  }

  list(): PlanRecord[] {
    return this.table.values();
  }

  /**
   * For admin checks, not the hot path: the plan as the database has it now. A plan another
   * replica (or worker) has just created may not have reached this one's table yet, so an unknown
   * one re-reads the table before it is called unknown.
   */
  async current(name: string): Promise<PlanRecord | undefined> {
    if (!this.table.get(name)) await this.table.reload();
    return this.table.get(name);
  }

  /** Re-reads the table here and tells every other replica to do the same. */
  async changed(name: string): Promise<void> {
    // Read inside an admin change's transaction (the answer shows the change); forgotten if it rolls back.
    await this.table.reload();
    onRollback(() => this.table.reload());
    await afterCommit(() => this.bus.publish({ kind: 'plan', id: name }));
  }
}
