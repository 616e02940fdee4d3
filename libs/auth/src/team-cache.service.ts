import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { TeamRepository } from './team.repository';
import type { TeamRecord } from './team.record';

/**
 * Every team in memory (a company has tens, not millions), reloaded whenever any replica changes
 * one: the hot path reads a key's team and its budget without a query.
 */
@Injectable()
export class TeamCacheService implements OnModuleInit {
  private teams = new Map<string, TeamRecord>();
  private reloading?: Promise<void>;
  private stale = false;

  constructor(
    private readonly repository: TeamRepository,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
  ) {}

  async onModuleInit(): Promise<void> {
    this.bus.subscribe((message) => {
      if (message.kind === 'team' || message.kind === 'reset') void this.reload();
    });
    await this.reload();
  }

  get(id: string | null | undefined): TeamRecord | undefined {
    return id ? this.teams.get(id) : undefined;
  }

  list(): TeamRecord[] {
    return [...this.teams.values()];
  }

  /** Re-reads the table here and tells every other replica to do the same. */
  async changed(id: string): Promise<void> {
    await this.reload();
    await this.bus.publish({ kind: 'team', id });
  }

  private reload(): Promise<void> {
    if (this.reloading) {
      this.stale = true;
      return this.reloading;
    }
    this.reloading = this.repository
      .list()
      .then((rows) => {
        this.teams = new Map(rows.map((t) => [t.id, t]));
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
