import { Body, Controller, Delete, Get, Param, Put, UseGuards, UseInterceptors } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { afterCommit, onRollback } from '@rosetta/persistence';
import { validateBody } from '@rosetta/platform';
import { ModelEntryDto, perMillionTokens, ProviderEntryDto, RegistryService, RegistryWriterService, type EndpointPricing, type ResolvedProvider } from '@rosetta/registry';
import { CircuitBreakerService, EndpointHealthService } from '@rosetta/routing';
import { AdminGuard } from './admin.guard';
import { auditChange, Audited, AuditInterceptor } from './audit/audit.interceptor';

/**
 * Providers and models at run time, in the shape of PROVIDERS_FILE (ARCHITECTURE §5). Admin
 * edits outrank the catalog and the file; every replica reloads its registry snapshot.
 */
@Public()
@UseGuards(AdminGuard)
@UseInterceptors(AuditInterceptor)
@Controller('admin')
export class AdminRegistryController {
  constructor(
    private readonly registry: RegistryService,
    private readonly writer: RegistryWriterService,
    private readonly health: EndpointHealthService,
    private readonly breaker: CircuitBreakerService,
  ) {}

  @Get('providers')
  providers(): Record<string, unknown>[] {
    return this.registry.providers().map((p) => this.present(p));
  }

  @Put('providers/:slug')
  @Audited('provider.put', 'provider', 'slug')
  async putProvider(@Param('slug') slug: string, @Body() body: unknown): Promise<Record<string, unknown>> {
    const entry = validateBody(ProviderEntryDto, { ...(body as object), slug });
    auditChange(entry);
    await this.writer.applyProvider(entry, 'admin');
    await this.commit();
    return this.present(this.registry.provider(slug)!);
  }

  @Delete('providers/:slug')
  @Audited('provider.delete', 'provider', 'slug')
  async deleteProvider(@Param('slug') slug: string): Promise<{ slug: string; deleted: true }> {
    const provider = this.registry.provider(slug);
    if (!provider) throw new GatewayError('not_found_error', `Provider '${slug}' not found`);
    if (provider.builtin) throw GatewayError.invalidRequest(`Provider '${slug}' is built in; disable it instead (PUT with disabled: true)`, 'slug');
    await this.writer.deleteProvider(slug);
    await this.commit();
    return { slug, deleted: true };
  }

  @Put('models/*name')
  @Audited('model.put', 'model', 'name')
  async putModel(@Param('name') name: string | string[], @Body() body: unknown): Promise<Record<string, unknown>> {
    const id = Array.isArray(name) ? name.join('/') : name;
    const entry = validateBody(ModelEntryDto, { ...(body as object), name: this.writer.bareName(id) });
    auditChange(entry);
    await this.writer.applyModel(entry, 'admin');
    await this.commit();
    const model = this.registry.find(`${this.registry.namespace}/${entry.name}`)!;
    return {
      id: model.numericId,
      model_name: model.id,
      display_name: model.displayName,
      author: model.author,
      endpoints: model.endpoints.length,
      router_prior: model.routerPrior ? { ...model.routerPrior.quality, source: model.routerPrior.source } : null,
    };
  }

  /**
   * Read-your-writes here (the reload reads inside the change's transaction, and reads again if it
   * rolls back), then every other replica once it is committed.
   */
  private async commit(): Promise<void> {
    await this.registry.reload();
    onRollback(() => this.registry.reload());
    await afterCommit(() => this.writer.changed());
  }

  /**
   * An endpoint's live health: status (0 operational, 1 degraded, 2 down, 3 disabled), uptime and
   * percentiles over the last 30 minutes (shared by every replica through Redis), and this
   * replica's circuit breaker.
   */
  private healthOf(endpoint: string): Record<string, unknown> {
    const stats = this.health.stats(endpoint);
    const circuit = this.breaker.info(endpoint);
    const round = (value: number | null): number | null => (value === null ? null : Math.round(value * 10) / 10);
    return {
      status: this.health.status(endpoint),
      uptime_pct: round(stats.uptimePct),
      calls_30m: stats.samples,
      failures_30m: stats.failures,
      ttft_ms: { p50: round(stats.ttftP50), p90: round(stats.ttftP90) },
      latency_ms: { p50: round(stats.latencyP50), p90: round(stats.latencyP90) },
      throughput_tps: { p50: round(stats.throughputP50), p90: round(stats.throughputP90) },
      circuit: { state: circuit.state, consecutive_failures: circuit.consecutiveFailures, open_until: circuit.openUntil === null ? null : new Date(circuit.openUntil).toISOString() },
    };
  }

  private present(p: ResolvedProvider): Record<string, unknown> {
    const endpoints = this.registry
      .list()
      .flatMap((m) => m.endpoints.filter((e) => e.provider === p.slug).map((e) => ({ model: m.id, kind: m.kind, upstream_model: e.upstreamModel, disabled: e.disabled, context_length: e.contextLength, max_completion_tokens: e.maxCompletionTokens, usd_per_million_tokens: usdPerMillionTokens(e.pricing), pricing: e.pricing, health: this.healthOf(`${p.slug}/${e.upstreamModel}`) })));
    return {
      slug: p.slug,
      protocol: p.protocol,
      base_url: p.baseUrl,
      ...platformFields(p),
      configured: p.configured,
      ...(p.toConfigure ? { to_configure: p.toConfigure } : {}),
      has_api_key: Boolean(p.apiKey),
      data_collection: p.dataCollection,
      zdr: p.zdr,
      disabled: p.disabled,
      builtin: p.builtin,
      source: p.source,
      endpoints,
    };
  }
}

/** An endpoint's token prices as people read them (the per-token `pricing` stays beside them). */
function usdPerMillionTokens(pricing: EndpointPricing): Record<string, string> {
  const out: Record<string, string> = { prompt: perMillionTokens(pricing.prompt), completion: perMillionTokens(pricing.completion) };
  if (pricing.input_cache_read !== undefined) out['input_cache_read'] = perMillionTokens(pricing.input_cache_read);
  if (pricing.input_cache_write !== undefined) out['input_cache_write'] = perMillionTokens(pricing.input_cache_write);
  return out;
}

/** A provider's platform settings as the admin API and the providers file write them. */
function platformFields(p: ResolvedProvider): Record<string, string> {
  const platform = p.platform;
  if (!platform) return {};
  if (platform.kind === 'vertex') return { platform: 'vertex', project: platform.project, location: platform.location };
  if (platform.kind === 'bedrock') return { platform: 'bedrock', region: platform.region };
  return { platform: 'azure', auth: platform.auth, ...(platform.apiVersion ? { api_version: platform.apiVersion } : {}) };
}
