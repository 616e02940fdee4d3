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

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
