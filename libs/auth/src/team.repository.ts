import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { managerOf } from '@rosetta/persistence';
import { guardrailsFromColumn, presentGuardrails, type GuardrailCheckJson } from '@rosetta/guardrails';
import type { BudgetPeriod } from './api-key.record';
import { TeamEntity } from './team.entity';
import type { TeamChange, TeamRecord } from './team.record';

/** The only place that touches the teams table. */
@Injectable()
export class TeamRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside an admin change's transaction when there is one (managerOf), so it commits with its audit row. */
  private get repo(): Repository<TeamEntity> {
    return managerOf(this.dataSource).getRepository(TeamEntity);
  }

  async insert(team: { name: string; budget: TeamRecord['budget']; guardrails?: TeamRecord['guardrails'] }): Promise<TeamRecord> {
    const now = new Date();
    const entity = this.repo.create({
      id: randomUUID(),
      name: team.name,
      budgetUsd: team.budget ? String(team.budget.usd) : null,
      budgetPeriod: team.budget?.period ?? null,
      guardrails: storedGuardrails(team.guardrails),
      createdAt: now,
      updatedAt: now,
    });
    await this.repo.insert(entity);
    return toRecord(entity);
  }

  async findById(id: string): Promise<TeamRecord | null> {
    const entity = await this.repo.findOneBy({ id });
    return entity ? toRecord(entity) : null;
  }

  async findByName(name: string): Promise<TeamRecord | null> {
    const entity = await this.repo.findOneBy({ name });
    return entity ? toRecord(entity) : null;
  }

  async list(): Promise<TeamRecord[]> {
    return (await this.repo.find({ order: { createdAt: 'ASC' } })).map(toRecord);
  }

  async update(id: string, change: TeamChange): Promise<TeamRecord | null> {
    const set: Partial<TeamEntity> = { updatedAt: new Date() };
    if (change.name !== undefined) set.name = change.name;
    if (change.budget !== undefined) {
      set.budgetUsd = change.budget ? String(change.budget.usd) : null;
      set.budgetPeriod = change.budget?.period ?? null;
    }
    if (change.guardrails !== undefined) set.guardrails = storedGuardrails(change.guardrails);
    await this.repo.update({ id }, set);
    return this.findById(id);
  }
}

function toRecord(entity: TeamEntity): TeamRecord {
  return {
    id: entity.id,
    name: entity.name,
    budget: entity.budgetUsd !== null && entity.budgetPeriod ? { usd: Number(entity.budgetUsd), period: entity.budgetPeriod as BudgetPeriod } : null,
    guardrails: guardrailsFromColumn(entity.guardrails),
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
  };
}

/** The jsonb value of a policy: the admin API's shape; an empty list is stored as none. */
function storedGuardrails(checks: TeamRecord['guardrails']): GuardrailCheckJson[] | null {
  const shown = presentGuardrails(checks ?? null);
  return shown && shown.length > 0 ? shown : null;
}
