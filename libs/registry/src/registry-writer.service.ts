import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type UpstreamProtocolId } from '@rosetta/canonical';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { ROSETTA_CONFIG, SECRET_BOX, type RosettaConfig, type SecretBox } from '@rosetta/platform';
import { routerPriorQuality, type EndpointEntryDto, type ModelEntryDto, type ProviderEntryDto, type RouterPriorDto } from './provider-entry.dto';
import type { RegistrySource } from './registry.entities';
import { checkEndpointKind } from './endpoint-kind';
import { endpointPricing } from './endpoint-prices';
import { providerPlatform } from './provider-platform';
import { checkModelName } from './model-id';
import type { EndpointPricing, ModelKind } from './registry-records';
import { RegistryRepository, type EndpointUpsert } from './registry.repository';

/** Applies catalog, file and admin entries to the database, then tells every replica to reload. */
@Injectable()
export class RegistryWriterService {
  constructor(
    private readonly repository: RegistryRepository,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
  ) {}

  async applyProvider(entry: ProviderEntryDto, source: RegistrySource): Promise<void> {
    // `null` stores nothing (the stored key is kept), so only a value needs a key to seal it.
    if (entry.api_key != null && !this.secrets.canSeal) {
      // A shared PostgreSQL without SECRETS_KEY: never store a provider's key in plain text.
      throw GatewayError.invalidRequest(
        `Provider '${entry.slug}': storing api_key needs SECRETS_KEY (32 random bytes, e.g. \`openssl rand -base64 32\`, the same on every replica) to encrypt it; or give api_key_env, the name of an environment variable holding the key`,
        'api_key',
      );
    }
    const platform = providerPlatform(entry);
    // Every endpoint is checked before anything is written: a refused entry changes nothing.
    const endpoints: Array<{ name: string; kind: ModelKind; endpoint: EndpointEntryDto; pricing: EndpointPricing }> = [];
    for (const [i, endpoint] of (entry.endpoints ?? []).entries()) {
      const name = this.bareName(endpoint.model);
      checkModelName(name, `endpoints[${i}].model`);
      const existing = await this.repository.modelKind(name);
      const kind = endpoint.kind ?? existing ?? 'chat';
      checkEndpointKind({ provider: entry.slug, protocol: entry.protocol, model: this.publicId(name), kind, existing, endpoint });
      endpoints.push({ name, kind, endpoint, pricing: endpointPricing(endpoint, `endpoints[${i}]`) });
    }
    await this.repository.upsertProvider({
      slug: entry.slug,
      protocol: entry.protocol as UpstreamProtocolId,
      baseUrl: entry.base_url ?? null,
      apiKeyEnv: entry.api_key_env ?? null,
      apiKey: entry.api_key ?? null,
      dataCollection: entry.data_collection === 'deny' ? 'deny' : 'allow',
      zdr: entry.zdr ?? false,
      builtin: entry.builtin ?? false,
      disabled: entry.disabled ?? false,
      source,
      platform,
    });
    for (const { name, kind, endpoint, pricing } of endpoints) {
      const modelId = await this.repository.ensureModel(name, entry.slug, source, kind);
      await this.repository.upsertEndpoint(modelId, this.toEndpoint(entry.slug, endpoint, pricing, kind, source));
      await this.applyPrior(modelId, endpoint.router_prior, source);
    }
  }

  async applyModel(entry: ModelEntryDto, source: RegistrySource): Promise<number> {
    const name = this.bareName(entry.name);
    checkModelName(name, 'name');
    const existing = await this.repository.modelKind(name);
    if (existing !== undefined && entry.kind !== undefined && entry.kind !== existing) {
      // Its endpoints were written for the other kind (an embedding endpoint has no output limit).
      throw GatewayError.invalidRequest(`'${this.publicId(name)}' is ${existing === 'embedding' ? 'an embedding' : 'a chat'} model; a model's kind cannot change`, 'kind');
    }
    const kind = entry.kind ?? existing ?? 'chat';
    const endpoints: Array<{ provider: string; endpoint: EndpointEntryDto; pricing: EndpointPricing }> = [];
    for (const [i, endpoint] of (entry.endpoints ?? []).entries()) {
      const provider = (endpoint as EndpointEntryDto & { provider?: string }).provider;
      if (!provider) continue;
      const protocol = (await this.repository.providerProtocol(provider)) ?? '';
      checkEndpointKind({ provider, protocol, model: this.publicId(name), kind, existing: kind, endpoint });
      endpoints.push({ provider, endpoint, pricing: endpointPricing(endpoint, `endpoints[${i}]`) });
    }
    const id = await this.repository.upsertModel({
      name,
      displayName: entry.display_name,
      author: entry.author,
      description: entry.description ?? '',
      distillable: entry.distillable ?? false,
      kind: entry.kind,
      source,
      createdAt: entry.created_at ? new Date(entry.created_at) : undefined,
    });
    await this.applyPrior(id, entry.router_prior, source);
    for (const { provider, endpoint, pricing } of endpoints) await this.repository.upsertEndpoint(id, this.toEndpoint(provider, endpoint, pricing, kind, source));
    return id;
  }

  /** `router_prior`: an object sets it, null clears it, absent leaves it (unless a higher source owns it). */
  private async applyPrior(modelId: number, prior: RouterPriorDto | null | undefined, source: RegistrySource): Promise<void> {
    if (prior === undefined) return;
    await this.repository.setRouterPrior(modelId, prior === null ? null : routerPriorQuality(prior), source);
  }

  async deleteProvider(slug: string): Promise<boolean> {
    return this.repository.deleteProvider(slug);
  }

  /** Every replica reloads its snapshot (this one included, through the same bus). */
  async changed(): Promise<void> {
    await this.bus.publish({ kind: 'registry', id: '*' });
  }

  /** `rosetta/gpt-4o-mini` → `gpt-4o-mini`; a bare name stays as it is. */
  bareName(model: string): string {
    const prefix = `${this.config.modelNamespace}/`;
    return model.startsWith(prefix) ? model.slice(prefix.length) : model;
  }

  private publicId(name: string): string {
    return `${this.config.modelNamespace}/${name}`;
  }

  private toEndpoint(provider: string, e: EndpointEntryDto, pricing: EndpointPricing, kind: ModelKind, source: RegistrySource): EndpointUpsert {
    const embedding = kind === 'embedding';
    return {
      provider,
      upstreamModel: e.upstream_model,
      quantization: e.quantization ?? 'unknown',
      contextLength: e.context_length,
      // An embedding endpoint produces no tokens (and checkEndpointKind made chat ones give theirs).
      maxCompletionTokens: embedding ? 0 : e.max_completion_tokens!,
      supportsTools: embedding ? false : (e.tools ?? true),
      supportsVision: e.vision ?? false,
      supportsReasoning: embedding ? false : (e.reasoning ?? false),
      pricing,
      dimensions: embedding ? (e.dimensions ?? null) : null,
      customDimensions: embedding && (e.custom_dimensions ?? false),
      disabled: e.disabled ?? false,
      source,
    };
  }
}
