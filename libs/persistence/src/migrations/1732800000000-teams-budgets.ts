import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams, dollar budgets per key and per team, per-key model allow-lists (ARCHITECTURE §8), and the
 * team on each ledger row so a team's spend is summed from an index.
 */
export class TeamsBudgets1732800000000 implements MigrationInterface {
  name = 'TeamsBudgets1732800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE teams (
        id uuid PRIMARY KEY,
        name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
        budget_usd numeric(20, 9) CHECK (budget_usd IS NULL OR budget_usd >= 0),
        budget_period text CHECK (budget_period IN ('day', 'month', 'total')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((budget_usd IS NULL) = (budget_period IS NULL))
      )`);
    await queryRunner.query(`
      ALTER TABLE api_keys
        ADD COLUMN team_id uuid REFERENCES teams(id),
        ADD COLUMN budget_usd numeric(20, 9) CHECK (budget_usd IS NULL OR budget_usd >= 0),
        ADD COLUMN budget_period text CHECK (budget_period IN ('day', 'month', 'total')),
        ADD COLUMN models text[],
        ADD CONSTRAINT api_keys_budget_whole CHECK ((budget_usd IS NULL) = (budget_period IS NULL))`);
    await queryRunner.query('CREATE INDEX api_keys_team ON api_keys (team_id) WHERE team_id IS NOT NULL');
    await queryRunner.query('ALTER TABLE request_log ADD COLUMN team_id uuid');
    await queryRunner.query('CREATE INDEX request_log_team_time ON request_log (team_id, created_at) WHERE team_id IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX request_log_team_time');
    await queryRunner.query('ALTER TABLE request_log DROP COLUMN team_id');
    await queryRunner.query('DROP INDEX api_keys_team');
    await queryRunner.query('ALTER TABLE api_keys DROP CONSTRAINT api_keys_budget_whole, DROP COLUMN models, DROP COLUMN budget_period, DROP COLUMN budget_usd, DROP COLUMN team_id');
    await queryRunner.query('DROP TABLE teams');
  }
}
