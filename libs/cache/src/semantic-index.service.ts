import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { DataSource } from 'typeorm';

/** pgvector indexes `vector` up to 2,000 dimensions and `halfvec` up to 4,000. */
const MAX_VECTOR_DIMENSIONS = 2000;
const MAX_HALFVEC_DIMENSIONS = 4000;
const SWEEP_MS = 10 * 60_000;

export const SEMANTIC_UNAVAILABLE =
  "Semantic caching needs PostgreSQL's 'vector' extension (pgvector), which this database does not have: use mode 'exact', or install pgvector (every managed PostgreSQL offers it; the embedded database bundles it)";

/** The nearest stored question in a scope and context, and how alike it is (cosine similarity). */
export interface SemanticMatch {
  cacheKey: string;
  similarity: number;
}

/**
 * The semantic response cache's vectors (ARCHITECTURE §9): the embedding of each stored answer's
 * last user turn, in PostgreSQL with pgvector and an HNSW index (cosine), one table per vector
 * size. A lookup finds the nearest question with the same scope and the same everything else
 * (`context`, a hash of the request without its last turn's text); the answer itself stays in the
 * exact cache under `cacheKey`. Without the extension, semantic mode is unavailable (the admin API
 * refuses it) and exact mode works as before.
 */
@Injectable()
export class SemanticIndexService implements OnModuleInit, OnModuleDestroy {
  private available = false;
  private readonly tables = new Map<number, Promise<string>>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    const rows: Array<{ known: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') OR EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS known`,
    );
    this.available = rows[0]?.known === true;
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** Whether this database can hold the vectors (pgvector installed, or installable). */
  get supported(): boolean {
    return this.available;
  }

  /** For the admin API: semantic mode is refused, naming the field, on a database without pgvector. */
  check(settings: { mode: string } | null | undefined, param = 'cache.mode'): void {
    if (settings?.mode === 'semantic' && !this.available) throw GatewayError.invalidRequest(SEMANTIC_UNAVAILABLE, param);
  }

  async nearest(scope: string, context: string, embedding: readonly number[]): Promise<SemanticMatch | undefined> {
    const table = await this.table(embedding.length);
    const cast = castFor(embedding.length);
    const rows: Array<{ cache_key: string; distance: number }> = await this.dataSource.query(
      `SELECT cache_key, embedding <=> $3::${cast} AS distance FROM ${table}
        WHERE scope = $1 AND context = $2 AND expires_at > now()
        ORDER BY embedding <=> $3::${cast} LIMIT 1`,
      [scope, context, literal(embedding)],
    );
    const row = rows[0];
    return row ? { cacheKey: row.cache_key, similarity: 1 - Number(row.distance) } : undefined;
  }

  async add(scope: string, context: string, embedding: readonly number[], cacheKey: string, ttlS: number): Promise<void> {
    const table = await this.table(embedding.length);
    await this.dataSource.query(
      `INSERT INTO ${table} (scope, context, cache_key, embedding, expires_at) VALUES ($1, $2, $3, $4::${castFor(embedding.length)}, now() + make_interval(secs => $5))`,
      [scope, context, cacheKey, literal(embedding), ttlS],
    );
  }

  /** The table for vectors of this size, created (with the extension and its HNSW index) on first use. */
  private table(dimensions: number): Promise<string> {
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_HALFVEC_DIMENSIONS) {
      return Promise.reject(new Error(`an embedding of ${dimensions} dimensions cannot be indexed (at most ${MAX_HALFVEC_DIMENSIONS})`));
    }
    let ready = this.tables.get(dimensions);
    if (!ready) {
      ready = this.create(dimensions);
      this.tables.set(dimensions, ready);
      ready.catch(() => this.tables.delete(dimensions));
    }
    return ready;
  }

  private async create(dimensions: number): Promise<string> {
    const table = `response_cache_vectors_${dimensions}`;
    const type = `${castFor(dimensions)}(${dimensions})`;
    const ops = dimensions > MAX_VECTOR_DIMENSIONS ? 'halfvec_cosine_ops' : 'vector_cosine_ops';
    // Replicas may race to create these: IF NOT EXISTS, and a lost race on the extension retried once.
    await this.dataSource.query('CREATE EXTENSION IF NOT EXISTS vector').catch(() => this.dataSource.query('CREATE EXTENSION IF NOT EXISTS vector'));
    await this.dataSource.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         id bigserial PRIMARY KEY, scope text NOT NULL, context text NOT NULL, cache_key text NOT NULL,
         embedding ${type} NOT NULL, expires_at timestamptz NOT NULL)`,
    );
    await this.dataSource.query(`CREATE INDEX IF NOT EXISTS ${table}_hnsw ON ${table} USING hnsw (embedding ${ops})`);
    await this.dataSource.query(`CREATE INDEX IF NOT EXISTS ${table}_scope ON ${table} (scope, context, expires_at)`);
    return table;
  }

  /** Drops expired vectors (their answers have expired from the exact cache too). */
  private async sweep(): Promise<void> {
    for (const ready of this.tables.values()) {
      try {
        await this.dataSource.query(`DELETE FROM ${await ready} WHERE expires_at <= now()`);
      } catch (error) {
        this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'semantic cache sweep failed');
      }
    }
  }
}

function castFor(dimensions: number): string {
  return dimensions > MAX_VECTOR_DIMENSIONS ? 'halfvec' : 'vector';
}

/** pgvector's text form: `[0.1,0.2,…]`, every value finite. */
function literal(embedding: readonly number[]): string {
  return `[${embedding.map((v) => (Number.isFinite(v) ? v : 0)).join(',')}]`;
}
