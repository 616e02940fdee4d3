import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { afterCommit, INVALIDATION_BUS, onRollback, ReloadingTable, type InvalidationBus } from '@rosetta/persistence';
import { TeamRepository } from './team.repository';
import type { TeamRecord } from './team.record';

/**
 * Every team in memory (a company has tens, not millions), reloaded whenever any replica changes
 * one: the hot path reads a key's team and its budget without a query.
 */
@Injectable()
export class TeamCacheService implements OnModuleInit {
  private readonly table: ReloadingTable<string, TeamRecord>;

  constructor(
    private readonly repository: TeamRepository,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
  ) {
    this.table = new ReloadingTable(() => this.repository.list(), (row) => row.id);
  }

  async onModuleInit(): Promise<void> {
    this.bus.subscribe((message) => {
      if (message.kind === 'team' || message.kind === 'reset') void this.table.reload();
    });
    await this.table.reload();
  }

  get(id: string | null | undefined): TeamRecord | undefined {
    return id ? this.table.get(id) : undefined;
  }

  list(): TeamRecord[] {
    return this.table.values();
  }

  /**
   * For admin checks, not the hot path: the team as the database has it now. A team another
   * replica (or worker) has just created may not have reached this one's table yet, so an unknown
   * one re-reads the table before it is called unknown.
   */
  async current(id: string): Promise<TeamRecord | undefined> {
    if (!this.table.get(id)) await this.table.reload();
    return this.table.get(id);
  }

  /** Re-reads the table here and tells every other replica to do the same. */
  async changed(id: string): Promise<void> {
    // Read inside an admin change's transaction (the answer shows the change); forgotten if it rolls back.
    await this.table.reload();
    onRollback(() => this.table.reload());
    await afterCommit(() => this.bus.publish({ kind: 'team', id: id }));
  }
}
