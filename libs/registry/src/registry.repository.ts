import { Inject, Injectable } from '@nestjs/common';
import type { UpstreamProtocolId } from '@rosetta/canonical';
import { APP_LOGGER, isSealed, providerSecretBinding, SECRET_BOX, SecretNotSealedError, type AppLogger, type SecretBox } from '@rosetta/platform';
import { managerOf } from '@rosetta/persistence';
import { DataSource, type EntityManager } from 'typeorm';
import { EndpointEntity, ModelEntity, ProviderEntity, type RegistrySource } from './registry.entities';
import type { EndpointPricing, EndpointRecord, ModelKind, ModelRecord, ProviderPlatform, ProviderRecord, RouterPrior } from './registry-records';

export type ProviderUpsert = Omit<ProviderRecord, 'builtin' | 'disabled'> & { builtin?: boolean; disabled?: boolean };
/** `kind` absent: a new model is a chat model, an existing one keeps its kind. */
export type ModelUpsert = Pick<ModelRecord, 'name' | 'displayName' | 'author' | 'description' | 'distillable' | 'source'> & { createdAt?: Date; kind?: ModelKind };
export type EndpointUpsert = Omit<EndpointRecord, 'disabled'> & { disabled?: boolean };

/**
 * The only place that touches the registry tables. Upserts from a lower-priority source never
 * overwrite a row an operator edited through the admin API (catalog < file < admin). Provider
 * secrets are sealed on the way in and opened on the way out (SecretBox): the table never holds one
 * in plain text once SECRETS_KEY (or the embedded database's key file) exists.
 */
@Injectable()
export class RegistryRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  /** Inside an admin change's transaction when there is one, so a refused change leaves nothing behind. */
  private get db(): EntityManager {
    return managerOf(this.dataSource);
  }

  async load(): Promise<{ providers: ProviderRecord[]; models: ModelRecord[] }> {
    const [providers, models, endpoints] = await Promise.all([
      this.db.getRepository(ProviderEntity).find({ order: { slug: 'ASC' } }),
      this.db.getRepository(ModelEntity).find({ order: { id: 'ASC' } }),
      this.db.getRepository(EndpointEntity).find({ order: { id: 'ASC' } }),
    ]);
    const byModel = new Map<number, EndpointRecord[]>();
    for (const e of endpoints) byModel.set(e.modelId, [...(byModel.get(e.modelId) ?? []), toEndpoint(e)]);
    return {
      providers: providers.map((p) => {
        const apiKey = this.openSecret(p.slug, p.apiKey);
        return { ...toProvider(p), apiKey, ...(p.apiKey !== null && apiKey === null ? { storedKeyUnreadable: true } : {}) };
      }),
      models: models.map((m) => ({ ...toModel(m), endpoints: byModel.get(m.id) ?? [] })),
    };
  }

  async upsertProvider(p: ProviderUpsert): Promise<void> {
    await this.db.query(
      `INSERT INTO providers (slug, protocol, base_url, api_key_env, api_key, data_collection, zdr, builtin, disabled, source, platform, platform_options)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (slug) DO UPDATE SET protocol = EXCLUDED.protocol, base_url = EXCLUDED.base_url,
         api_key_env = EXCLUDED.api_key_env, api_key = COALESCE(EXCLUDED.api_key, providers.api_key),
         data_collection = EXCLUDED.data_collection, zdr = EXCLUDED.zdr, builtin = providers.builtin OR EXCLUDED.builtin,
         disabled = EXCLUDED.disabled, source = EXCLUDED.source, platform = EXCLUDED.platform,
         platform_options = EXCLUDED.platform_options, updated_at = now()
       WHERE ${precedence('providers')}`,
      [p.slug, p.protocol, p.baseUrl, p.apiKeyEnv, p.apiKey === null ? null : this.secrets.seal(p.apiKey, apiKeyBinding(p.slug)), p.dataCollection, p.zdr, p.builtin ?? false, p.disabled ?? false, p.source,
        p.platform?.kind ?? null, p.platform ? JSON.stringify(platformOptions(p.platform)) : null],
    );
  }

  /** Returns the model's integer id. */
  async upsertModel(m: ModelUpsert): Promise<number> {
    const rows: Array<{ id: number }> = await this.db.query(
      `INSERT INTO models (name, display_name, author, description, distillable, kind, source, created_at)
       VALUES ($1, $2, $3, $4, $5, COALESCE($6, 'chat'), $7, COALESCE($8, now()))
       ON CONFLICT (name) DO UPDATE SET display_name = EXCLUDED.display_name, author = EXCLUDED.author,
         description = EXCLUDED.description, distillable = EXCLUDED.distillable, kind = COALESCE($6, models.kind), source = EXCLUDED.source, updated_at = now()
       WHERE ${precedence('models')}
       RETURNING id`,
      [m.name, m.displayName, m.author, m.description, m.distillable, m.kind ?? null, m.source, m.createdAt ?? null],
    );
    if (rows[0]) return rows[0].id;
    const existing: Array<{ id: number }> = await this.db.query('SELECT id FROM models WHERE name = $1', [m.name]);
    return existing[0]!.id;
  }

  /**
   * Sets (or, with null, clears) a model's declared router prior, unless a source of higher rank
   * declared the one it has (catalog < file < admin, as for every registry row).
   */
  async setRouterPrior(modelId: number, quality: RouterPrior['quality'] | null, source: RegistrySource): Promise<void> {
    await this.db.query(
      `UPDATE models SET router_prior = $2::jsonb, router_prior_source = CASE WHEN $2::jsonb IS NULL THEN NULL ELSE $3 END, updated_at = now()
       WHERE id = $1 AND (CASE COALESCE(router_prior_source, 'catalog') WHEN 'catalog' THEN 0 WHEN 'file' THEN 1 ELSE 2 END)
         <= (CASE $3 WHEN 'catalog' THEN 0 WHEN 'file' THEN 1 ELSE 2 END)`,
      [modelId, quality === null ? null : JSON.stringify(quality), source],
    );
  }

  /** Creates a bare model of `kind` for an endpoint that names one the catalog lacks; keeps an existing one. */
  async ensureModel(name: string, author: string, source: RegistrySource, kind: ModelKind): Promise<number> {
    await this.db.query(
      `INSERT INTO models (name, display_name, author, description, distillable, kind, source) VALUES ($1, $1, $2, '', false, $3, $4)
       ON CONFLICT (name) DO NOTHING`,
      [name, author, kind, source],
    );
    const rows: Array<{ id: number }> = await this.db.query('SELECT id FROM models WHERE name = $1', [name]);
    return rows[0]!.id;
  }

  /** The kind of an existing model; undefined when there is none of that name. */
  async modelKind(name: string): Promise<ModelKind | undefined> {
    const rows: Array<{ kind: string }> = await this.db.query('SELECT kind FROM models WHERE name = $1', [name]);
    return rows[0] ? toKind(rows[0].kind) : undefined;
  }

  /** A provider's protocol, for checking what its endpoints may serve. */
  async providerProtocol(slug: string): Promise<string | undefined> {
    const rows: Array<{ protocol: string }> = await this.db.query('SELECT protocol FROM providers WHERE slug = $1', [slug]);
    return rows[0]?.protocol;
  }

  async upsertEndpoint(modelId: number, e: EndpointUpsert): Promise<void> {
    await this.db.query(
      `INSERT INTO endpoints (model_id, provider, upstream_model, quantization, context_length, max_completion_tokens,
         supports_tools, supports_vision, supports_reasoning, pricing, disabled, source, dimensions, custom_dimensions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (model_id, provider) DO UPDATE SET upstream_model = EXCLUDED.upstream_model,
         quantization = EXCLUDED.quantization, context_length = EXCLUDED.context_length,
         max_completion_tokens = EXCLUDED.max_completion_tokens, supports_tools = EXCLUDED.supports_tools,
         supports_vision = EXCLUDED.supports_vision, supports_reasoning = EXCLUDED.supports_reasoning,
         pricing = EXCLUDED.pricing, disabled = EXCLUDED.disabled, source = EXCLUDED.source,
         dimensions = EXCLUDED.dimensions, custom_dimensions = EXCLUDED.custom_dimensions, updated_at = now()
       WHERE ${precedence('endpoints')}`,
      [modelId, e.provider, e.upstreamModel, e.quantization, e.contextLength, e.maxCompletionTokens, e.supportsTools,
        e.supportsVision, e.supportsReasoning, JSON.stringify(e.pricing), e.disabled ?? false, e.source, e.dimensions, e.customDimensions],
    );
  }

  /**
   * Seals again every stored provider secret sealed under a previous key or before secrets were
   * bound to their row (enc:v1:), so a rotated-out key can be dropped after one start. A value that
   * is not sealed at all is left alone and named: it is refused, not sealed as if it were the
   * secret. Returns how many rows changed.
   */
  async resealProviderSecrets(): Promise<number> {
    const rows: Array<{ slug: string; api_key: string }> = await this.db.query('SELECT slug, api_key FROM providers WHERE api_key IS NOT NULL');
    const plain = rows.filter((row) => !isSealed(row.api_key)).map((row) => row.slug);
    if (plain.length > 0) {
      this.logger.error({ providers: plain }, 'registry: provider secrets stored unencrypted are refused (those providers are unconfigured); set their api_key again through the admin API or PROVIDERS_FILE');
    }
    if (!this.secrets.canSeal) return 0;
    let changed = 0;
    for (const row of rows) {
      if (!this.secrets.needsReseal(row.api_key)) continue;
      const plain = this.openSecret(row.slug, row.api_key);
      if (plain === null) continue;
      // Only if nobody changed the row meanwhile (another replica resealing, an admin edit).
      const result: [unknown[], number] = await this.db.query('UPDATE providers SET api_key = $1 WHERE slug = $2 AND api_key = $3', [this.secrets.seal(plain, apiKeyBinding(row.slug)), row.slug, row.api_key]);
      changed += result[1];
    }
    return changed;
  }

  /** A stored secret in plain text; null (the provider is then unconfigured) when no key opens it or it is not sealed for this row. */
  private openSecret(slug: string, stored: string | null): string | null {
    if (stored === null) return null;
    try {
      return this.secrets.open(stored, apiKeyBinding(slug));
    } catch (error) {
      if (error instanceof SecretNotSealedError) return null; // named once at start by resealProviderSecrets
      this.logger.error(
        { provider: slug, reason: (error as Error).message },
        'registry: a provider secret cannot be opened: sealed under another key (set SECRETS_KEY or SECRETS_KEY_PREVIOUS to it), or for another provider, or damaged',
      );
      return null;
    }
  }

  async deleteProvider(slug: string): Promise<boolean> {
    const result: [unknown[], number] = await this.db.query('DELETE FROM providers WHERE slug = $1 AND NOT builtin', [slug]);
    return result[1] > 0;
  }

  async getSetting(key: string): Promise<string | null> {
    const rows: Array<{ value: string }> = await this.db.query('SELECT value FROM settings WHERE key = $1', [key]);
    return rows[0]?.value ?? null;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.db.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, value],
    );
  }

  /** Serialises seeding across replicas starting together. */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(7152027)');
      return await fn();
    } finally {
      await runner.query('SELECT pg_advisory_unlock(7152027)').catch(() => undefined);
      await runner.release();
    }
  }
}

/** catalog < file < admin: a source may replace rows of its own rank or below. */
function precedence(table: string): string {
  return `(CASE ${table}.source WHEN 'catalog' THEN 0 WHEN 'file' THEN 1 ELSE 2 END)
    <= (CASE EXCLUDED.source WHEN 'catalog' THEN 0 WHEN 'file' THEN 1 ELSE 2 END)`;
}

function toProvider(p: ProviderEntity): ProviderRecord {
  return {
    slug: p.slug, protocol: p.protocol as UpstreamProtocolId, baseUrl: p.baseUrl, apiKeyEnv: p.apiKeyEnv, apiKey: p.apiKey,
    dataCollection: p.dataCollection === 'deny' ? 'deny' : 'allow', zdr: p.zdr, builtin: p.builtin, disabled: p.disabled, source: p.source,
    platform: toPlatform(p.platform, p.platformOptions),
  };
}

function toPlatform(kind: string | null, options: Record<string, string> | null): ProviderPlatform | null {
  if (kind === 'vertex') return { kind, project: options?.['project'] ?? '', location: options?.['location'] ?? 'global' };
  if (kind === 'bedrock') return { kind, region: options?.['region'] ?? '' };
  if (kind !== 'azure') return null;
  return { kind, auth: options?.['auth'] === 'azure-ad' ? 'azure-ad' : 'api-key', ...(options?.['api_version'] ? { apiVersion: options['api_version'] } : {}) };
}

function toModel(m: ModelEntity): Omit<ModelRecord, 'endpoints'> {
  return {
    id: m.id, name: m.name, displayName: m.displayName, author: m.author, description: m.description,
    distillable: m.distillable, kind: toKind(m.kind), source: m.source, createdAt: m.createdAt, updatedAt: m.updatedAt,
    routerPrior: m.routerPrior && m.routerPriorSource ? { quality: m.routerPrior as RouterPrior['quality'], source: m.routerPriorSource } : null,
  };
}

function toKind(kind: string): ModelKind {
  return kind === 'embedding' ? 'embedding' : 'chat';
}

function toEndpoint(e: EndpointEntity): EndpointRecord {
  return {
    provider: e.provider, upstreamModel: e.upstreamModel, quantization: e.quantization, contextLength: e.contextLength,
    maxCompletionTokens: e.maxCompletionTokens, supportsTools: e.supportsTools, supportsVision: e.supportsVision,
    supportsReasoning: e.supportsReasoning, pricing: e.pricing as unknown as EndpointPricing, dimensions: e.dimensions,
    customDimensions: e.customDimensions, disabled: e.disabled, source: e.source,
  };
}

function apiKeyBinding(slug: string): string {
  return providerSecretBinding(slug, 'api_key');
}

/** A platform's settings as stored (`platform_options`): never a secret. */
function platformOptions(platform: ProviderPlatform): Record<string, string> {
  if (platform.kind === 'vertex') return { project: platform.project, location: platform.location };
  if (platform.kind === 'bedrock') return { region: platform.region };
  return { auth: platform.auth, ...(platform.apiVersion ? { api_version: platform.apiVersion } : {}) };
}
