import type { GuardrailCheckJson } from '@rosetta/guardrails';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'teams' })
export class TeamEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'text', unique: true })
  name!: string;

  /** numeric(20, 9): node-postgres returns it as a string. */
  @Column({ name: 'budget_usd', type: 'numeric', nullable: true })
  budgetUsd!: string | null;

  @Column({ name: 'budget_period', type: 'text', nullable: true })
  budgetPeriod!: string | null;

  /** The team's guardrail checks as the admin API shows them (policy-column.ts reads them back). */
  @Column({ type: 'jsonb', nullable: true })
  guardrails!: GuardrailCheckJson[] | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
