import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { GatewayError, type UpstreamProtocolId } from '@rosetta/canonical';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { AUTO_MODEL_NAME } from './catalog';
import { protocolServes } from './endpoint-kind';
import { modelNotFound, nearestModelId, parseModelId } from './model-id';
import type { EndpointRecord, ModelRecord, ProviderRecord } from './registry-records';
import { platformBaseUrl } from './provider-platform';
import { RegistryRepository } from './registry.repository';
import { RegistrySeederService } from './registry-seeder.service';

export interface RegistryModel extends Omit<ModelRecord, 'createdAt' | 'updatedAt' | 'id'> {
  /** The public id, `rosetta/<name>`. */
  id: string;
  /** The database id of the model record. */
  numericId: number;
  createdAt: string;
  updatedAt: string;
  /** The Mixture of Models: it has no endpoints of its own. */
  isAuto: boolean;
}

export type RegistryEndpoint = EndpointRecord;

/** A provider with its effective address and credential (built-ins from the environment). */
export interface ResolvedProvider extends Omit<ProviderRecord, 'baseUrl' | 'apiKey' | 'apiKeyEnv'> {
  baseUrl: string | null;
  apiKey?: string;
  /** Has an address and a credential (or takes none: `apiKey` is then ''), so it can be called. */
  configured: boolean;
  /** What an operator sets to make an unconfigured provider callable, in words (never a secret). */
  toConfigure?: string;
}

/** The variable that keys each built-in provider (config.ts reads them). */
const BUILTIN_KEY_VARIABLE: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
  bedrock: 'BEDROCK_REGION',
  vertex: 'VERTEX_PROJECT',
  'vertex-anthropic': 'VERTEX_PROJECT',
};

/**
 * The registry as every request reads it: an in-memory snapshot of the database, seeded at start
 * and reloaded on every replica when anyone changes it. No request queries the database.
 */
@Injectable()
export class RegistryService implements OnModuleInit {
  private models: RegistryModel[] = [];
  private byId = new Map<string, RegistryModel>();
  private providersBySlug = new Map<string, ResolvedProvider>();
  readonly namespace: string;

  constructor(
    private readonly repository: RegistryRepository,
    private readonly seeder: RegistrySeederService,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    this.namespace = config.modelNamespace;
  }

  async onModuleInit(): Promise<void> {
    await this.seeder.seed();
    await this.reload();
    // Said once at start, so an operator sees what a configuration change did (issue 27).
    this.logger.info(this.servingSummary(), 'registry: what serves each model');
    this.bus.subscribe((message) => {
      if (message.kind === 'registry' || message.kind === 'reset') {
        this.reload().catch((error: Error) => this.logger.warn({ err: error.message }, 'registry reload failed; keeping the previous snapshot'));
      }
    });
  }

  async reload(): Promise<void> {
    const { providers, models } = await this.repository.load();
    this.providersBySlug = new Map(providers.map((p) => [p.slug, this.resolveProvider(p)]));
    this.models = models.map((m) => ({
      ...m,
      endpoints: this.servable(m),
      id: `${this.namespace}/${m.name}`,
      numericId: m.id,
      createdAt: m.createdAt.toISOString(),
      updatedAt: m.updatedAt.toISOString(),
      isAuto: m.name === AUTO_MODEL_NAME,
    }));
    this.byId = new Map(this.models.map((m) => [m.id, m]));
  }

  get autoModelId(): string {
    return `${this.namespace}/${AUTO_MODEL_NAME}`;
  }

  /** Applies the id rules, then looks the model up: 400 for a malformed id, 404 for an unknown one. */
  resolve(model: unknown, param = 'model'): RegistryModel {
    const aliased = typeof model === 'string' ? this.alias(model) : undefined;
    if (aliased) return aliased;
    try {
      parseModelId(model, this.namespace, param);
    } catch (error) {
      throw this.withSuggestion(error, model, param);
    }
    const found = this.byId.get(model as string);
    if (!found) throw modelNotFound(model as string, param, String(model).length <= 200 ? nearestModelId(model as string, [...this.byId.keys()]) : undefined);
    return found;
  }

  /**
   * The interface's 400 for an id outside the namespace, kept as it is, with the id the caller most
   * likely meant (`gpt-4o-mini` → `rosetta/gpt-4o-mini`) and how an operator maps a client's own
   * default id (issue 27).
   */
  private withSuggestion(error: unknown, model: unknown, param: string): unknown {
    if (!(error instanceof GatewayError) || typeof model !== 'string' || model.length > 200) return error;
    // `gpt-4o-mini`, `models/gpt-4o-mini`, `openai/gpt-4o-mini`: the name after the last slash,
    // suggested only when the namespace holds it (a near miss of another model is no help here).
    const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
    const meant = `${this.namespace}/${name}`;
    if (!name || !this.byId.has(meant) || meant === model) return error;
    return GatewayError.invalidRequest(`${error.message}; did you mean '${meant}'? (an operator can map a client's own model ids with MODEL_ALIASES)`, param);
  }

  /**
   * The endpoints that can serve the model: an embedding model's endpoint on a provider whose
   * protocol has no embeddings (a provider whose protocol changed after the endpoint was written)
   * is left out, loudly, rather than called with a request it cannot take.
   */
  private servable(model: ModelRecord): EndpointRecord[] {
    return model.endpoints.filter((e) => {
      const protocol = this.providersBySlug.get(e.provider)?.protocol;
      if (protocol === undefined || protocolServes(protocol, model.kind)) return true;
      this.logger.error({ model: `${this.namespace}/${model.name}`, provider: e.provider, protocol }, 'registry: an embedding model cannot be served over a protocol without embeddings; endpoint ignored');
      return false;
    });
  }

  /** An operator's alias (MODEL_ALIASES, off by default): a client's own default id mapped to a Rosetta model. */
  private alias(model: string): RegistryModel | undefined {
    for (const { pattern, target } of this.config.modelAliases) {
      const matches = pattern.endsWith('*') ? model.startsWith(pattern.slice(0, -1)) : model === pattern;
      if (matches) return this.byId.get(target);
    }
    return undefined;
  }

  /** Whether a model can be called with the operator's credentials (rosetta/auto always). */
  callable(model: RegistryModel): boolean {
    return model.isAuto || model.endpoints.some((e) => !e.disabled && this.providersBySlug.get(e.provider)?.configured === true && !this.providersBySlug.get(e.provider)?.disabled);
  }

  /**
   * Each model by the providers that can serve it now, and each model none can, with what an
   * operator would set for it (the same words a request for it is refused with).
   */
  servingSummary(): { served: Record<string, string>; unserved: Record<string, string> } {
    const served: Record<string, string> = {};
    const unserved: Record<string, string> = {};
    for (const model of this.models) {
      if (model.isAuto) continue;
      const live = model.endpoints.filter((e) => !e.disabled && this.providersBySlug.get(e.provider)?.configured && !this.providersBySlug.get(e.provider)?.disabled);
      if (live.length > 0) {
        served[model.id] = [...new Set(live.map((e) => e.provider))].join(', ');
        continue;
      }
      const needs = model.endpoints.map((e) => {
        const provider = this.providersBySlug.get(e.provider);
        return provider?.toConfigure ? `${provider.toConfigure} (provider '${e.provider}')` : `enable provider '${e.provider}' or its endpoint`;
      });
      unserved[model.id] = [...new Set(needs)].join('; ') || 'it has no endpoints';
    }
    return { served, unserved };
  }

  /** By public id or by the integer id (`GET /v1/models/3`). */
  find(idOrNumber: string): RegistryModel | undefined {
    if (/^\d+$/.test(idOrNumber)) return this.models.find((m) => m.numericId === Number(idOrNumber));
    return this.byId.get(idOrNumber);
  }

  list(): readonly RegistryModel[] {
    return this.models;
  }

  provider(slug: string): ResolvedProvider | undefined {
    return this.providersBySlug.get(slug);
  }

  providers(): ResolvedProvider[] {
    return [...this.providersBySlug.values()];
  }

  private resolveProvider(record: ProviderRecord): ResolvedProvider {
    const builtin = record.builtin ? this.config.providers.find((b) => b.slug === record.slug) : undefined;
    // A built-in cloud provider takes its platform from its variables; unset, it stays off.
    const cloud = record.builtin && record.platform ? (builtin?.cloud ?? null) : undefined;
    if (cloud === null) {
      const { apiKeyEnv: _env, apiKey: _key, storedKeyUnreadable: _unreadable, ...off } = record;
      return { ...off, baseUrl: null, apiKey: undefined, configured: false, toConfigure: `set ${BUILTIN_KEY_VARIABLE[record.slug] ?? 'its variables'}` };
    }
    const p: ProviderRecord = cloud ? { ...record, platform: cloud } : record;
    const baseUrl = (builtin?.baseUrl ?? p.baseUrl ?? platformBaseUrl(p.platform))?.replace(/\/+$/, '') ?? null;
    // A provider of the operator's given neither api_key nor api_key_env takes no key (Ollama, vLLM
    // without --api-key): it is called without a credential header.
    const keyless = !p.builtin && !p.platform && p.apiKeyEnv === null && p.apiKey === null && !p.storedKeyUnreadable;
    // Azure with Entra ID, Vertex AI, and Bedrock without an API key: the token or the AWS
    // credentials are fetched per process when the provider is first called.
    const signsIn =
      (p.platform?.kind === 'azure' && p.platform.auth === 'azure-ad') ||
      p.platform?.kind === 'vertex' ||
      (p.platform?.kind === 'bedrock' && p.apiKeyEnv === null && p.apiKey === null && !p.storedKeyUnreadable);
    const apiKey = builtin?.apiKey ?? (p.apiKeyEnv ? process.env[p.apiKeyEnv]?.trim() || undefined : undefined) ?? p.apiKey ?? (keyless || signsIn ? '' : undefined);
    const { apiKeyEnv: _env, apiKey: _key, storedKeyUnreadable: _unreadable, ...rest } = p;
    const configured = Boolean(baseUrl) && apiKey !== undefined;
    return { ...rest, protocol: p.protocol as UpstreamProtocolId, baseUrl, apiKey, configured, ...(configured ? {} : { toConfigure: toConfigure(p, baseUrl, keyless) }) };
  }
}

/** What makes a provider without a key or an address callable, as the operator would set it. */
function toConfigure(p: ProviderRecord, baseUrl: string | null, keyless: boolean): string {
  if (keyless) return `give provider '${p.slug}' a base_url`;
  const key = (p.builtin ? BUILTIN_KEY_VARIABLE[p.slug] : undefined) ?? p.apiKeyEnv ?? undefined;
  const needs = key ? `set ${key}` : `give provider '${p.slug}' an api_key (PUT /admin/providers/${p.slug})`;
  return baseUrl ? needs : `${needs} and a base_url`;
}
