import type { GuardrailCheckJson } from '@rosetta/guardrails';
import type { CacheSettingsJson } from '@rosetta/cache';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'plans' })
export class PlanEntity {
  @PrimaryColumn('text')
  name!: string;

  @Column({ type: 'integer', nullable: true })
  rpm!: number | null;

  @Column({ type: 'integer', nullable: true })
  tpm!: number | null;

  /** `{mode, ttl_s, similarity}` as the admin API writes it (cache-settings.ts reads it back). */
  @Column({ type: 'jsonb', nullable: true })
  cache!: CacheSettingsJson | null;

  @Column({ name: 'prompt_cache', type: 'text', nullable: true })
  promptCache!: string | null;

  /** The guardrail checks as the admin API shows them (policy-column.ts reads them back). */
  @Column({ type: 'jsonb', nullable: true })
  guardrails!: GuardrailCheckJson[] | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
