import type { CanonicalRequest, EmbeddingRequest } from '@rosetta/canonical';
import { LocalInvalidationBus } from '@rosetta/persistence';
import { loadConfig, type AppLogger } from '@rosetta/platform';
import type { ProviderAdapter } from '@rosetta/providers';
import { RegistryService, type EndpointRecord, type ModelRecord, type ProviderRecord } from '@rosetta/registry';

type RegistryRepository = ConstructorParameters<typeof RegistryService>[0];
type RegistrySeederService = ConstructorParameters<typeof RegistryService>[1];
import { CircuitBreakerService } from './health/circuit-breaker.service';
import { EndpointHealthService } from './health/endpoint-health.service';
import { LiveEndpointHealth } from './health-port.module';
import { MixtureService } from './mixture.service';
import { RoutingService } from './routing.service';

const clock = { now: 1_700_000_000_000 };
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as AppLogger;

function provider(slug: string, protocol: 'openai' | 'anthropic' | 'gemini' = 'openai'): ProviderRecord {
  return { slug, protocol, baseUrl: `https://${slug}.example/v1`, apiKeyEnv: null, apiKey: `key-${slug}-000000`, dataCollection: 'allow', zdr: false, builtin: false, disabled: false, source: 'admin' };
}

function endpoint(providerSlug: string, upstreamModel: string, price: number, extra: Partial<EndpointRecord> = {}): EndpointRecord {
  return {
    provider: providerSlug,
    upstreamModel,
    quantization: 'unknown',
    contextLength: 8_000,
    maxCompletionTokens: 2_000,
    supportsTools: true,
    supportsVision: false,
    supportsReasoning: false,
    pricing: { prompt: String(price), completion: String(price * 4) },
    dimensions: null,
    customDimensions: false,
    disabled: false,
    source: 'admin',
    ...extra,
  };
}

function model(id: number, name: string, endpoints: EndpointRecord[], kind: ModelRecord['kind'] = 'chat', routerPrior: ModelRecord['routerPrior'] = null): ModelRecord {
  return { id, name, displayName: name, author: 'test', description: '', distillable: false, kind, source: 'admin', routerPrior, createdAt: new Date(0), updatedAt: new Date(0), endpoints };
}

/**
 * A real RegistryService over an in-memory repository, a real breaker on a fake clock, the real
 * router. `toolless`: alpha's and gamma's endpoints take no tools.
 */
async function setup({ toolless = false, extra = { providers: [], models: [] } }: { toolless?: boolean; extra?: { providers: ProviderRecord[]; models: ModelRecord[] } } = {}) {
  const config = loadConfig({});
  const providers = [provider('alpha'), provider('beta'), provider('gamma', 'anthropic'), provider('gem', 'gemini'), ...extra.providers];
  const tools = { supportsTools: !toolless };
  const embedding = { maxCompletionTokens: 0, supportsTools: false, customDimensions: true, dimensions: 1536 };
  const models = [
    model(1, 'auto', []),
    model(2, 'small', [endpoint('alpha', 'small-a', 1e-7, tools), endpoint('beta', 'small-b', 2e-7)], 'chat', { quality: { default: 0.7 }, source: 'file' }),
    model(3, 'large', [endpoint('gamma', 'large-g', 3e-6, { contextLength: 200_000, maxCompletionTokens: 8_000, ...tools })], 'chat', { quality: { default: 0.9, coding: 0.95 }, source: 'admin' }),
    model(4, 'tiny-window', [endpoint('alpha', 'tiny', 1e-8, { contextLength: 100 })]),
    model(5, 'embed', [endpoint('alpha', 'te3s', 2e-8, { ...embedding, contextLength: 8191 }), endpoint('gem', 'ge1', 1.5e-7, { ...embedding, contextLength: 2048 })], 'embedding'),
    model(6, 'embed-fixed', [endpoint('beta', 'ada', 1e-7, { ...embedding, customDimensions: false })], 'embedding'),
    model(7, 'embed-on-anthropic', [endpoint('gamma', 'nothing', 1e-7, embedding)], 'embedding'),
    ...extra.models,
  ];
  const repository = { load: async () => ({ providers, models }) } as unknown as RegistryRepository;
  const seeder = { seed: async () => undefined } as unknown as RegistrySeederService;
  const registry = new RegistryService(repository, seeder, new LocalInvalidationBus(), config, logger);
  await registry.reload();
  const breaker = new CircuitBreakerService({ consecutiveFailures: 1, cooldownMs: 1_000, clock: () => clock.now });
  const stats = new EndpointHealthService(null, breaker, logger, { clock: () => clock.now, autoStart: false });
  const health = new LiveEndpointHealth(stats, breaker, registry);
  const adapters = new Map<string, ProviderAdapter>([['openai', {} as ProviderAdapter], ['anthropic', {} as ProviderAdapter], ['gemini', {} as ProviderAdapter]]);
  const mixture = new MixtureService(config, logger);
  mixture.onModuleInit();
  return { routing: new RoutingService(registry, adapters, health, config, mixture), breaker, registry };
}

function request(modelId: string, extra: Partial<CanonicalRequest> = {}, routing: CanonicalRequest['routing'] = {}): CanonicalRequest {
  return { model: modelId, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }], stream: false, routing, ...extra };
}

const route = (attempts: { model: string; target: { provider: string } }[]) => attempts.map((a) => `${a.model}@${a.target.provider}`);

describe('RoutingService', () => {
  it('plans the model, then its fallback chain, with provider_order first', async () => {
    const { routing } = await setup();
    const plan = routing.plan(request('rosetta/small', {}, { models: ['rosetta/large'], order: ['beta'] }));
    expect(route(plan.attempts)).toEqual(['rosetta/small@beta', 'rosetta/small@alpha', 'rosetta/large@gamma']);
  });

  it('skips an endpoint whose circuit is open, and takes it back once the cool-down has passed', async () => {
    const { routing, breaker } = await setup();
    breaker.record('alpha/small-a', true, clock.now);
    const open = routing.plan(request('rosetta/small', {}, { only: ['alpha', 'beta'] }));
    expect(route(open.attempts)).toEqual(['rosetta/small@beta']);
    clock.now += 1_001;
    const halfOpen = routing.plan(request('rosetta/small', {}, { order: ['alpha'] }));
    expect(route(halfOpen.attempts)[0]).toBe('rosetta/small@alpha');
  });

  it('names the filter that emptied the candidates: 400 for the request, 503 when nothing is available', async () => {
    const { routing, breaker } = await setup();
    expect(() => routing.plan(request('rosetta/small', {}, { only: ['gamma'] }))).toThrow(expect.objectContaining({ status: 400, param: 'provider_only' }));
    breaker.record('gamma/large-g', true, clock.now);
    expect(() => routing.plan(request('rosetta/large'))).toThrow(expect.objectContaining({ status: 503, type: 'overloaded_error' }));
  });

  it('refuses a prompt that does not fit the context window', async () => {
    const { routing } = await setup();
    const long = 'word '.repeat(200);
    expect(() => routing.plan(request('rosetta/tiny-window', { messages: [{ role: 'user', content: [{ type: 'text', text: long }] }] }))).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });

  it("keeps a key inside its allow-list: 403 naming the model or the fallback, rosetta/auto inside the list", async () => {
    const { routing } = await setup();
    const allowed = ['rosetta/small'];
    expect(() => routing.plan(request('rosetta/large'), undefined, { allowed })).toThrow(
      expect.objectContaining({ type: 'permission_error', status: 403, param: 'model', message: "This key may not use model 'rosetta/large'; it may use: rosetta/small" }),
    );
    expect(() => routing.plan(request('rosetta/small', {}, { models: ['rosetta/large'] }), undefined, { allowed })).toThrow(expect.objectContaining({ param: 'models[0]' }));
    const auto = routing.plan(request('rosetta/auto'), undefined, { allowed });
    expect(new Set(auto.attempts.map((a) => a.model))).toEqual(new Set(['rosetta/small']));
  });

  it('rosetta/auto scores a model by its declared prior, and leaves out a model with neither prior nor profile, saying why', async () => {
    const { routing } = await setup();
    const explained = routing.explain(request('rosetta/auto'));
    const decision = explained['decision'] as { candidates: Array<{ id: string; basis: string; source: string }> };
    expect(decision.candidates.map((c) => [c.id, c.basis, c.source]).sort()).toEqual([
      ['rosetta/large', 'prior', 'prior (admin API) default'],
      ['rosetta/small', 'prior', 'prior (providers file) default'],
    ]);
    expect(explained['filters']).toEqual(expect.arrayContaining([{ model: 'rosetta/tiny-window', eligible: [], excluded_by: 'router_prior' }]));
    // Alone, the unscored model cannot be routed to: a 503 that says what to declare.
    expect(() => routing.plan(request('rosetta/auto', {}, { models: ['rosetta/tiny-window'] }))).toThrow(
      expect.objectContaining({ status: 503, message: expect.stringContaining('declare router_prior') }),
    );
  });

  it('lowers an output cap past what the endpoint can give, per attempt', async () => {
    const { routing } = await setup();
    const plan = routing.plan(request('rosetta/small', { maxOutputTokens: 5_000 }, { models: ['rosetta/large'] }));
    expect(plan.attempts.map((a) => a.target.outputTokenCap)).toEqual([2_000, 2_000, undefined]);
  });

  it('refuses a model outside the namespace (400) and an unknown one (404), naming the field', async () => {
    const { routing } = await setup();
    expect(() => routing.plan(request('gpt-4o'))).toThrow(
      expect.objectContaining({ status: 400, param: 'model', message: "invalid model 'gpt-4o': only rosetta/* models are supported" }),
    );
    expect(() => routing.plan(request('rosetta/small', {}, { models: ['rosetta/nope'] }))).toThrow(
      expect.objectContaining({ status: 404, type: 'model_registry_error', param: 'models[0]', message: "Model 'rosetta/nope' not found" }),
    );
  });

  it('sorts by price, cheapest first, and drops ignored providers', async () => {
    const { routing } = await setup();
    expect(route(routing.plan(request('rosetta/small', {}, { sort: 'price' })).attempts)).toEqual(['rosetta/small@alpha', 'rosetta/small@beta']);
    expect(route(routing.plan(request('rosetta/small', {}, { ignore: ['alpha'] })).attempts)).toEqual(['rosetta/small@beta']);
  });

  it('keeps only the listed providers without fallbacks, and is 503 when none of them is available', async () => {
    const { routing, breaker } = await setup();
    const prefs = { order: ['beta'], allowFallbacks: false };
    expect(route(routing.plan(request('rosetta/small', {}, prefs)).attempts)).toEqual(['rosetta/small@beta']);
    breaker.record('beta/small-b', true, clock.now);
    expect(() => routing.plan(request('rosetta/small', {}, prefs))).toThrow(
      expect.objectContaining({ status: 503, message: "No available provider for 'rosetta/small': none of the providers in provider_order is available and allow_fallbacks is false" }),
    );
  });

  it('routes a request with tools only to endpoints that take tools, naming tools when none does', async () => {
    const { routing } = await setup({ toolless: true });
    const tools = { tools: [{ name: 'lookup', parameters: { type: 'object' } }] };
    expect(route(routing.plan(request('rosetta/small', tools)).attempts)).toEqual(['rosetta/small@beta']);
    expect(() => routing.plan(request('rosetta/large', tools))).toThrow(
      expect.objectContaining({ status: 400, param: 'tools', message: "No endpoint of 'rosetta/large' satisfies tool support (the request has tools)" }),
    );
  });

  describe('embedding models', () => {
    const embed = (model: string, extra: Partial<EmbeddingRequest> = {}): EmbeddingRequest => ({ model, inputs: [{ type: 'text', text: 'hello' }], routing: {}, ...extra });
    const small = { largestInputTokens: 2 };

    it('plans an embedding model over every protocol that embeds, with its vector size on the target', async () => {
      const { routing } = await setup();
      const plan = routing.planEmbedding(embed('rosetta/embed', { routing: { order: ['gem'] } }), small);
      expect(route(plan.attempts)).toEqual(['rosetta/embed@gem', 'rosetta/embed@alpha']);
      expect(plan.attempts.map((a) => [a.target.dimensions, a.target.customDimensions, a.target.maxCompletionTokens])).toEqual([[1536, true, 0], [1536, true, 0]]);
    });

    it('never serves an embedding model over a protocol without embeddings (Anthropic): the registry drops the endpoint', async () => {
      const { registry, routing } = await setup();
      expect(registry.find('rosetta/embed-on-anthropic')!.endpoints).toEqual([]);
      expect(() => routing.planEmbedding(embed('rosetta/embed-on-anthropic'), small)).toThrow(expect.objectContaining({ status: 503, type: 'overloaded_error' }));
    });

    it('sends token ids only where the protocol takes them, and says so when nothing does', async () => {
      const { routing } = await setup();
      const tokens = embed('rosetta/embed', { inputs: [{ type: 'tokens', tokens: [1, 2] }] });
      expect(route(routing.planEmbedding(tokens, small).attempts)).toEqual(['rosetta/embed@alpha']);
      expect(() => routing.planEmbedding({ ...tokens, routing: { only: ['gem'] } }, small)).toThrow(
        expect.objectContaining({ status: 400, param: 'input', message: "No endpoint of 'rosetta/embed' satisfies token-id input (its providers take text only)" }),
      );
    });

    it('gives a smaller size only where the upstream shortens, and the own size everywhere', async () => {
      const { routing } = await setup();
      expect(route(routing.planEmbedding(embed('rosetta/embed-fixed', { dimensions: 1536 }), small).attempts)).toEqual(['rosetta/embed-fixed@beta']);
      expect(() => routing.planEmbedding(embed('rosetta/embed-fixed', { dimensions: 256 }), small)).toThrow(
        expect.objectContaining({ status: 400, param: 'dimensions', message: "No endpoint of 'rosetta/embed-fixed' satisfies dimensions / outputDimensionality (256 requested; it gives 1536 and takes no other)" }),
      );
      expect(() => routing.planEmbedding(embed('rosetta/embed', { dimensions: 2000 }), small)).toThrow(expect.objectContaining({ status: 400, param: 'dimensions' }));
    });

    it('holds the largest input to each endpoint\'s input limit', async () => {
      const { routing } = await setup();
      expect(route(routing.planEmbedding(embed('rosetta/embed'), { largestInputTokens: 3_000 }).attempts)).toEqual(['rosetta/embed@alpha']);
      expect(() => routing.planEmbedding(embed('rosetta/embed'), { largestInputTokens: 9_000 })).toThrow(
        expect.objectContaining({ status: 400, param: 'input', message: "No endpoint of 'rosetta/embed' satisfies the input limit (its largest input is about 9000 tokens; the limit is 8191)" }),
      );
    });

    it('refuses the wrong kind of model in either direction, naming the field', async () => {
      const { routing } = await setup();
      expect(() => routing.plan(request('rosetta/embed'))).toThrow(
        expect.objectContaining({ status: 400, param: 'model', message: "'rosetta/embed' is an embedding model: call it through POST /v1/embeddings (or :embedContent), not a chat route" }),
      );
      expect(() => routing.plan(request('rosetta/small', {}, { models: ['rosetta/embed'] }))).toThrow(expect.objectContaining({ status: 400, param: 'models[0]' }));
      expect(() => routing.planEmbedding(embed('rosetta/small'), small)).toThrow(
        expect.objectContaining({ status: 400, param: 'model', message: "'rosetta/small' is not an embedding model: name one such as rosetta/embed, rosetta/embed-fixed" }),
      );
      expect(() => routing.planEmbedding(embed('rosetta/auto'), small)).toThrow(expect.objectContaining({ status: 400, param: 'model', message: expect.stringContaining('(rosetta/auto routes chat requests)') }));
      expect(() => routing.planEmbedding(embed('rosetta/embed', { routing: { models: ['rosetta/large'] } }), small)).toThrow(expect.objectContaining({ status: 400, param: 'models[0]' }));
    });

    it('keeps rosetta/auto to chat models', async () => {
      const { routing } = await setup();
      const models = new Set(routing.plan(request('rosetta/auto')).attempts.map((a) => a.model));
      expect([...models].filter((m) => m.startsWith('rosetta/embed'))).toEqual([]);
      expect(models.size).toBeGreaterThan(0);
    });
  });
});

describe('RoutingService: a model no configured provider serves (issue 27)', () => {
  it('is a configuration error naming what to set, which SDKs are told not to retry', async () => {
    const unkeyed: ProviderRecord = { ...provider('delta'), apiKey: null, apiKeyEnv: 'DELTA_API_KEY' };
    const disabled: ProviderRecord = { ...provider('epsilon'), disabled: true };
    const { routing } = await setup({
      extra: { providers: [unkeyed, disabled], models: [model(8, 'unserved', [endpoint('delta', 'u-d', 1e-7), endpoint('epsilon', 'u-e', 1e-7)])] },
    });
    let error: unknown;
    try {
      routing.plan(request('rosetta/unserved'), 10);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      type: 'configuration_error',
      status: 503,
      headers: { 'x-should-retry': 'false' },
      message: "'rosetta/unserved' is not served by this gateway: no provider that serves it is configured and enabled: set DELTA_API_KEY (provider 'delta'); enable provider 'epsilon' (PATCH /admin/providers/epsilon)",
    });
  });
});
