import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { managerOf } from '@rosetta/persistence';
import { PlanEntity } from './plan.entity';
import { cacheSettingsFromColumn, presentCacheSettings, promptCacheFromColumn } from '@rosetta/cache';
import { guardrailsColumn, guardrailsFromColumn } from '@rosetta/guardrails';
import type { PlanRecord } from './plan.record';

/** The columns a plan is read back from. */
const COLUMNS = 'name, rpm, tpm, cache, prompt_cache AS "promptCache", guardrails';

@Injectable()
export class PlanRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside an admin change's transaction when there is one (managerOf), so it commits with its audit row. */
  private get repo(): Repository<PlanEntity> {
    return managerOf(this.dataSource).getRepository(PlanEntity);
  }

  async list(): Promise<PlanRecord[]> {
    const rows = await this.repo.find({ order: { name: 'ASC' } });
    return rows.map(toRecord);
  }

  async find(name: string): Promise<PlanRecord | null> {
    const row = await this.repo.findOneBy({ name });
    return row ? toRecord(row) : null;
  }

  /** Creates or updates; returns the plan and whether it was created. */
  async upsert(plan: PlanRecord): Promise<{ plan: PlanRecord; created: boolean }> {
    const rows: Array<{ inserted: boolean }> = await this.repo.query(
      `INSERT INTO plans (name, rpm, tpm, cache, prompt_cache, guardrails) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (name) DO UPDATE SET rpm = EXCLUDED.rpm, tpm = EXCLUDED.tpm, cache = EXCLUDED.cache, prompt_cache = EXCLUDED.prompt_cache,
         guardrails = EXCLUDED.guardrails, updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [plan.name, plan.rpm, plan.tpm, cacheColumn(plan.cache), plan.promptCache, guardrailsColumn(plan.guardrails ?? null)],
    );
    return { plan, created: rows[0]?.inserted === true };
  }

  /** Changes only the fields given (undefined: unchanged; null: unlimited, or off); null when there is no such plan. */
  async update(name: string, change: Partial<Omit<PlanRecord, 'name'>>): Promise<PlanRecord | null> {
    const params: unknown[] = [name];
    const values = {
      rpm: change.rpm,
      tpm: change.tpm,
      cache: change.cache === undefined ? undefined : cacheColumn(change.cache),
      prompt_cache: change.promptCache,
      guardrails: change.guardrails === undefined ? undefined : guardrailsColumn(change.guardrails),
    };
    const set = (Object.keys(values) as (keyof typeof values)[]).filter((field) => values[field] !== undefined).map((field) => `${field} = $${params.push(values[field])}`);
    const rows: PlanRecord[] = await this.repo.query(
      // Wrapped in a SELECT: TypeORM answers a bare UPDATE ... RETURNING as [rows, count].
      `WITH changed AS (UPDATE plans SET ${[...set, 'updated_at = now()'].join(', ')} WHERE name = $1 RETURNING ${COLUMNS}) SELECT * FROM changed`,
      params,
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Deletes a plan no key refers to. Keys (revoked ones too: the foreign key keeps their history
   * whole) hold a plan in place; a key created meanwhile is caught by the foreign key itself.
   */
  async remove(name: string, attempts = 2): Promise<PlanRemoval> {
    try {
      const rows: PlanRecord[] = await this.repo.query(
        `WITH removed AS (DELETE FROM plans WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM api_keys WHERE plan = $1) RETURNING ${COLUMNS})
         SELECT * FROM removed`,
        [name],
      );
      if (rows[0]) return { status: 'removed', plan: toRecord(rows[0]) };
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
    }
    const users: Array<{ keys: number; active: number }> = await this.repo.query(
      `SELECT count(*)::int AS keys, count(*) FILTER (WHERE revoked_at IS NULL)::int AS active FROM api_keys WHERE plan = $1`,
      [name],
    );
    const { keys = 0, active = 0 } = users[0] ?? {};
    if (keys > 0) return { status: 'in_use', keys, activeKeys: active };
    // Still there with no key on it: a key moved away meanwhile; try once more.
    return attempts > 1 && (await this.find(name)) ? this.remove(name, attempts - 1) : { status: 'not_found' };
  }
}

export type PlanRemoval =
  | { status: 'removed'; plan: PlanRecord }
  | { status: 'not_found' }
  /** `keys` counts revoked keys too; `activeKeys` only those not revoked. */
  | { status: 'in_use'; keys: number; activeKeys: number };

/** PostgreSQL's foreign_key_violation, as pg and PGlite report it (TypeORM may wrap it). */
function isForeignKeyViolation(error: unknown): boolean {
  const failure = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return (failure?.code ?? failure?.driverError?.code) === '23503';
}

function toRecord(row: Pick<PlanEntity, 'name' | 'rpm' | 'tpm'> & { cache?: unknown; promptCache?: unknown; guardrails?: unknown }): PlanRecord {
  return {
    name: row.name,
    rpm: row.rpm,
    tpm: row.tpm,
    cache: cacheSettingsFromColumn(row.cache),
    promptCache: promptCacheFromColumn(row.promptCache),
    guardrails: guardrailsFromColumn(row.guardrails),
  };
}

/** The jsonb column's text: the admin API's shape. */
function cacheColumn(settings: PlanRecord['cache']): string | null {
  const shown = presentCacheSettings(settings);
  return shown && JSON.stringify(shown);
}
