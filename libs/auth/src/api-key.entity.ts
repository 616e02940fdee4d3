import type { GuardrailCheckJson } from '@rosetta/guardrails';
import type { CacheSettingsJson } from '@rosetta/cache';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'lookup_id', type: 'text', unique: true })
  lookupId!: string;

  @Column({ name: 'secret_hash', type: 'text' })
  secretHash!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  plan!: string;

  @Column({ type: 'integer', nullable: true })
  rpm!: number | null;

  @Column({ type: 'integer', nullable: true })
  tpm!: number | null;

  @Column({ name: 'route_knob', type: 'real', nullable: true })
  routeKnob!: number | null;

  @Column({ name: 'team_id', type: 'uuid', nullable: true })
  teamId!: string | null;

  /** numeric(20, 9): node-postgres returns it as a string, kept exact until converted. */
  @Column({ name: 'budget_usd', type: 'numeric', nullable: true })
  budgetUsd!: string | null;

  /** Each end user's budget over budget_period (decision 0033). */
  @Column({ name: 'end_user_budget_usd', type: 'numeric', nullable: true })
  endUserBudgetUsd!: string | null;

  @Column({ name: 'budget_period', type: 'text', nullable: true })
  budgetPeriod!: string | null;

  @Column({ type: 'text', array: true, nullable: true })
  models!: string[] | null;

  /** `{mode, ttl_s, similarity}` as the admin API writes it (null: as the plan). */
  @Column({ type: 'jsonb', nullable: true })
  cache!: CacheSettingsJson | null;

  @Column({ name: 'prompt_cache', type: 'text', nullable: true })
  promptCache!: string | null;

  /** The key's guardrail checks as the admin API shows them (policy-column.ts reads them back). */
  @Column({ type: 'jsonb', nullable: true })
  guardrails!: GuardrailCheckJson[] | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
