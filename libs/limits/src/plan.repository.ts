import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { PlanEntity } from './plan.entity';
import type { PlanRecord } from './plan.record';

@Injectable()
export class PlanRepository {
  private readonly repo: Repository<PlanEntity>;

  constructor(dataSource: DataSource) {
    this.repo = dataSource.getRepository(PlanEntity);
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
      `INSERT INTO plans (name, rpm, tpm) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET rpm = EXCLUDED.rpm, tpm = EXCLUDED.tpm, updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [plan.name, plan.rpm, plan.tpm],
    );
    return { plan, created: rows[0]?.inserted === true };
  }
}

function toRecord(row: PlanEntity): PlanRecord {
  return { name: row.name, rpm: row.rpm, tpm: row.tpm };
}
