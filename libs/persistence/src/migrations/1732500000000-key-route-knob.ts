import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A per-key default for rosetta/auto's cost/quality knob. */
export class KeyRouteKnob1732500000000 implements MigrationInterface {
  name = 'KeyRouteKnob1732500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_keys ADD COLUMN route_knob real CHECK (route_knob IS NULL OR (route_knob >= 0 AND route_knob <= 1))');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_keys DROP COLUMN route_knob');
  }
}
