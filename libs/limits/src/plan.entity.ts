import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'plans' })
export class PlanEntity {
  @PrimaryColumn('text')
  name!: string;

  @Column({ type: 'integer', nullable: true })
  rpm!: number | null;

  @Column({ type: 'integer', nullable: true })
  tpm!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
