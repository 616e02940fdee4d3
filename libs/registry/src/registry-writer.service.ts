import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type UpstreamProtocolId } from '@rosetta/canonical';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { ROSETTA_CONFIG, SECRET_BOX, type RosettaConfig, type SecretBox } from '@rosetta/platform';
import { routerPriorQuality, type EndpointEntryDto, type ModelEntryDto, type ProviderEntryDto, type RouterPriorDto } from './provider-entry.dto';
import type { RegistrySource } from './registry.entities';
import { RegistryRepository } from './registry.repository';

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
    });
    for (const endpoint of entry.endpoints ?? []) {
      const modelId = await this.repository.ensureModel(this.bareName(endpoint.model), entry.slug, source);
      await this.repository.upsertEndpoint(modelId, this.toEndpoint(entry.slug, endpoint, source));
      await this.applyPrior(modelId, endpoint.router_prior, source);
    }
  }

  async applyModel(entry: ModelEntryDto, source: RegistrySource): Promise<number> {
    const id = await this.repository.upsertModel({
      name: this.bareName(entry.name),
      displayName: entry.display_name,
      author: entry.author,
      description: entry.description ?? '',
      distillable: entry.distillable ?? false,
      source,
      createdAt: entry.created_at ? new Date(entry.created_at) : undefined,
    });
    await this.applyPrior(id, entry.router_prior, source);
    for (const endpoint of entry.endpoints ?? []) {
      const provider = (endpoint as EndpointEntryDto & { provider?: string }).provider;
      if (provider) await this.repository.upsertEndpoint(id, this.toEndpoint(provider, endpoint, source));
    }
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

  private toEndpoint(provider: string, e: EndpointEntryDto, source: RegistrySource) {
    return {
      provider,
      upstreamModel: e.upstream_model,
      quantization: e.quantization ?? 'unknown',
      contextLength: e.context_length,
      maxCompletionTokens: e.max_completion_tokens,
      supportsTools: e.tools ?? true,
      supportsVision: e.vision ?? false,
      supportsReasoning: e.reasoning ?? false,
      pricing: { ...e.pricing },
      disabled: e.disabled ?? false,
      source,
    };
  }
}
