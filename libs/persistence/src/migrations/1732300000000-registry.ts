import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The model registry: providers, models and the endpoints that serve each model. */
export class Registry1732300000000 implements MigrationInterface {
  name = 'Registry1732300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE providers (
        slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
        protocol text NOT NULL CHECK (protocol IN ('openai', 'anthropic', 'gemini')),
        base_url text,
        api_key_env text,
        api_key text,
        data_collection text NOT NULL DEFAULT 'allow' CHECK (data_collection IN ('allow', 'deny')),
        zdr boolean NOT NULL DEFAULT false,
        builtin boolean NOT NULL DEFAULT false,
        disabled boolean NOT NULL DEFAULT false,
        source text NOT NULL CHECK (source IN ('catalog', 'file', 'admin')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE models (
        id serial PRIMARY KEY,
        name text NOT NULL UNIQUE,
        display_name text NOT NULL,
        author text NOT NULL,
        description text NOT NULL DEFAULT '',
        distillable boolean NOT NULL DEFAULT false,
        source text NOT NULL CHECK (source IN ('catalog', 'file', 'admin')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE endpoints (
        id serial PRIMARY KEY,
        model_id integer NOT NULL REFERENCES models(id) ON DELETE CASCADE,
        provider text NOT NULL REFERENCES providers(slug) ON DELETE CASCADE ON UPDATE CASCADE,
        upstream_model text NOT NULL,
        quantization text NOT NULL DEFAULT 'unknown',
        context_length integer NOT NULL CHECK (context_length > 0),
        max_completion_tokens integer NOT NULL CHECK (max_completion_tokens > 0),
        supports_tools boolean NOT NULL DEFAULT true,
        supports_vision boolean NOT NULL DEFAULT false,
        supports_reasoning boolean NOT NULL DEFAULT false,
        pricing jsonb NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        source text NOT NULL CHECK (source IN ('catalog', 'file', 'admin')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (model_id, provider)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE endpoints');
    await queryRunner.query('DROP TABLE models');
    await queryRunner.query('DROP TABLE providers');
  }
}
