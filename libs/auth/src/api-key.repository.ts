import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { managerOf } from '@rosetta/persistence';
import { ApiKeyEntity } from './api-key.entity';
import { cacheSettingsFromColumn, presentCacheSettings, promptCacheFromColumn } from '@rosetta/cache';
import { guardrailsFromColumn, presentGuardrails, type GuardrailCheckJson } from '@rosetta/guardrails';
import type { ApiKeyRecord, Budget, BudgetPeriod, KeyChange, NewApiKey, StoredApiKey } from './api-key.record';

/** The only place that touches the api_keys table. */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside an admin change's transaction when there is one (managerOf), so it commits with its audit row. */
  private get repo(): Repository<ApiKeyEntity> {
    return managerOf(this.dataSource).getRepository(ApiKeyEntity);
  }

  async insert(key: NewApiKey): Promise<ApiKeyRecord> {
    const { budget, endUserBudget, cache, guardrails, ...rest } = key;
    const entity = this.repo.create({
      ...rest,
      cache: presentCacheSettings(cache ?? null),
      promptCache: key.promptCache ?? null,
      guardrails: storedGuardrails(guardrails ?? null),
      teamId: key.teamId ?? null,
      models: key.models ?? null,
      budgetUsd: budget ? String(budget.usd) : null,
      endUserBudgetUsd: endUserBudget ? String(endUserBudget.usd) : null,
      budgetPeriod: budget?.period ?? endUserBudget?.period ?? null,
      createdAt: new Date(),
      revokedAt: null,
      lastUsedAt: null,
    });
    await this.repo.insert(entity);
    return toRecord(entity);
  }

  async findByLookupId(lookupId: string): Promise<StoredApiKey | null> {
    const entity = await this.repo.findOneBy({ lookupId });
    return entity ? { ...toRecord(entity), secretHash: entity.secretHash } : null;
  }

  async findById(id: string): Promise<ApiKeyRecord | null> {
    const entity = await this.repo.findOneBy({ id });
    return entity ? toRecord(entity) : null;
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.repo.find({ order: { createdAt: 'ASC' } });
    return rows.map(toRecord);
  }

  /** Changes what `change` names (undefined: unchanged; null: cleared); null when there is no such key. */
  async update(id: string, change: KeyChange): Promise<ApiKeyRecord | null> {
    const set: Partial<ApiKeyEntity> = {};
    if (change.name !== undefined) set.name = change.name;
    if (change.plan !== undefined) set.plan = change.plan;
    if (change.rpm !== undefined) set.rpm = change.rpm;
    if (change.tpm !== undefined) set.tpm = change.tpm;
    if (change.routeKnob !== undefined) set.routeKnob = change.routeKnob;
    if (change.expiresAt !== undefined) set.expiresAt = change.expiresAt;
    if (change.teamId !== undefined) set.teamId = change.teamId;
    if (change.models !== undefined) set.models = change.models;
    if (change.cache !== undefined) set.cache = presentCacheSettings(change.cache);
    if (change.promptCache !== undefined) set.promptCache = change.promptCache;
    if (change.guardrails !== undefined) set.guardrails = storedGuardrails(change.guardrails);
    if (change.budget !== undefined || change.endUserBudget !== undefined) {
      // Changed together (keyBudgetsOf): both amounts, and the period they share.
      set.budgetUsd = change.budget ? String(change.budget.usd) : null;
      set.endUserBudgetUsd = change.endUserBudget ? String(change.endUserBudget.usd) : null;
      set.budgetPeriod = change.budget?.period ?? change.endUserBudget?.period ?? null;
    }
    if (Object.keys(set).length > 0) await this.repo.update({ id }, set);
    return this.findById(id);
  }

  /** How many keys (revoked or not) are on a plan. */
  async countByPlan(plan: string): Promise<number> {
    return this.repo.countBy({ plan });
  }

  /** Marks a key revoked; returns false when there is no such key. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    await this.repo
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'COALESCE(revoked_at, now())' })
      .where('id = :id', { id })
      .execute();
    return this.findById(id);
  }

  async touch(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.repo.query('UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::uuid[])', [ids]);
  }
}

function budgetOf(usd: string | null | undefined, period: string | null): Budget | null {
  return usd !== null && usd !== undefined && period ? { usd: Number(usd), period: period as BudgetPeriod } : null;
}

function toRecord(entity: ApiKeyEntity): ApiKeyRecord {
  return {
    id: entity.id,
    lookupId: entity.lookupId,
    name: entity.name,
    plan: entity.plan,
    rpm: entity.rpm,
    tpm: entity.tpm,
    routeKnob: entity.routeKnob,
    teamId: entity.teamId ?? null,
    budget: budgetOf(entity.budgetUsd, entity.budgetPeriod),
    endUserBudget: budgetOf(entity.endUserBudgetUsd, entity.budgetPeriod),
    models: entity.models ?? null,
    cache: cacheSettingsFromColumn(entity.cache),
    promptCache: promptCacheFromColumn(entity.promptCache),
    guardrails: guardrailsFromColumn(entity.guardrails),
    createdAt: entity.createdAt,
    expiresAt: entity.expiresAt,
    revokedAt: entity.revokedAt,
    lastUsedAt: entity.lastUsedAt,
  };
}

/** The jsonb value of a policy: the admin API's shape; an empty list is stored as none. */
function storedGuardrails(checks: ApiKeyRecord['guardrails']): GuardrailCheckJson[] | null {
  const shown = presentGuardrails(checks ?? null);
  return shown && shown.length > 0 ? shown : null;
}
