import type { ExternalCheckResult, ModelCheck } from '@rosetta/guardrails';
import { LocalInvalidationBus } from '@rosetta/persistence';
import { loadConfig, type AppLogger } from '@rosetta/platform';
import { UPSTREAM_PROTOCOLS } from '@rosetta/protocols/upstreams';
import { HttpTransport, ProtocolAdapter, type ProviderAdapter } from '@rosetta/providers';
import { RegistryService, type EndpointRecord, type ModelRecord, type ProviderRecord } from '@rosetta/registry';
import {
  CircuitBreakerService,
  EndpointHealthService,
  ExecutorService,
  LiveEndpointHealth,
  LLAMA_GUARD_CATEGORIES,
  MixtureService,
  MODEL_CHECK_HEAD_CHARS,
  MODEL_CHECK_TAIL_CHARS,
  ModelCheckRunner,
  modelCheckRequest,
  RoutingService,
} from '@rosetta/routing';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';

/**
 * The model check runner with the gateway's real routing, executor, provider adapters and health,
 * against the bundled simulator's guard models: a Llama Guard (`llama-guard-3-8b`, OpenAI chat
 * wire, as vLLM serves it) and a rubric classifier (`sim-guard`). No gateway process: the check
 * runs inside the data plane, and this drives it as the data plane does.
 */

type RegistryRepository = ConstructorParameters<typeof RegistryService>[0];
type RegistrySeeder = ConstructorParameters<typeof RegistryService>[1];

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as AppLogger;
const PROMPT_PRICE = 0.000001;
const COMPLETION_PRICE = 0.000004;
const CONTEXT = { requestId: 'req_model_check', keyId: 'key_1' };

function endpoint(upstreamModel: string): EndpointRecord {
  return {
    provider: 'guards',
    upstreamModel,
    quantization: 'unknown',
    contextLength: 128_000,
    maxCompletionTokens: 4_096,
    supportsTools: false,
    supportsVision: false,
    supportsReasoning: false,
    pricing: { prompt: String(PROMPT_PRICE), completion: String(COMPLETION_PRICE) },
    dimensions: null,
    customDimensions: false,
    disabled: false,
    source: 'admin',
  };
}

function model(id: number, name: string, upstreamModel: string): ModelRecord {
  return { id, name, displayName: name, author: 'test', description: '', distillable: false, kind: 'chat', source: 'admin', routerPrior: null, createdAt: new Date(0), updatedAt: new Date(0), endpoints: [endpoint(upstreamModel)] };
}

async function buildRunner(simUrl: string, timeoutMs?: number) {
  const config = loadConfig({});
  const provider: ProviderRecord = { slug: 'guards', protocol: 'openai', baseUrl: `${simUrl}/v1`, apiKeyEnv: null, apiKey: 'sk-guards-operator-000', dataCollection: 'allow', zdr: false, builtin: false, disabled: false, source: 'admin' };
  const models = [model(1, 'auto', ''), model(2, 'llama-guard-3-8b', 'llama-guard-3-8b'), model(3, 'safety', 'Llama-Guard-3-1B'), model(4, 'guard-mini', 'sim-guard')];
  models[0]!.endpoints = [];
  const repository = { load: async () => ({ providers: [provider], models }) } as unknown as RegistryRepository;
  const registry = new RegistryService(repository, { seed: async () => undefined } as unknown as RegistrySeeder, new LocalInvalidationBus(), config, logger);
  await registry.reload();
  const breaker = new CircuitBreakerService({ consecutiveFailures: 5, cooldownMs: 30_000 });
  const health = new LiveEndpointHealth(new EndpointHealthService(null, breaker, logger, { autoStart: false }), breaker, registry);
  const transport = new HttpTransport();
  const adapters = new Map<string, ProviderAdapter>(UPSTREAM_PROTOCOLS.map((p) => [p.id, new ProtocolAdapter(p, transport)]));
  const mixture = new MixtureService(config, logger);
  mixture.onModuleInit();
  const routing = new RoutingService(registry, adapters, health, config, mixture);
  const executor = new ExecutorService(adapters, health, config);
  return { runner: new ModelCheckRunner(routing, executor, timeoutMs), transport };
}

const guard: ModelCheck = { check: 'model', model: 'rosetta/llama-guard-3-8b', on: 'both', action: 'block' };
const rubric: ModelCheck = { check: 'model', model: 'rosetta/guard-mini', on: 'both', action: 'block' };

/** What the simulator charges: a quarter token per character of the messages, and a token per word answered. */
function expectedCall(request: ReturnType<typeof modelCheckRequest>, outputTokens: number, modelId: string): NonNullable<ExternalCheckResult['call']> {
  const parts = request.messages.flatMap((m) => m.content as Array<{ type: string; text?: string }>);
  const chars = parts.reduce((sum, part) => sum + (part.type === 'text' ? (part.text ?? '').length : 0), 0);
  const inputTokens = Math.ceil(chars / 4);
  const costUsd = Math.round((inputTokens * PROMPT_PRICE + outputTokens * COMPLETION_PRICE) * 1e12) / 1e12;
  return { model: modelId, provider: 'guards', inputTokens, outputTokens, costUsd };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
}

describe('model checks through the executor, against the simulator', () => {
  let sim: RunningSimulator;
  let built: Awaited<ReturnType<typeof buildRunner>>;

  beforeAll(async () => {
    sim = await startSimulator();
    built = await buildRunner(sim.url);
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await built.transport.close();
    await sim.close();
  });

  it('asks a Llama Guard in its own format and allows a safe prompt, with the call\'s tokens and cost', async () => {
    const text = 'What is the capital of Norway?';
    expect(await built.runner.run(guard, text, 'input', CONTEXT)).toEqual({
      verdict: { action: 'allow' },
      call: expectedCall(modelCheckRequest(guard, text, 'input', 'llama-guard'), 1, 'rosetta/llama-guard-3-8b'),
    });
    const [sent] = sim.requests();
    const body = sent?.body as { model: string; temperature: number; max_completion_tokens: number; messages: Array<{ role: string; content: unknown }> };
    expect({ model: body.model, temperature: body.temperature, max: body.max_completion_tokens, messages: body.messages.map((m) => ({ role: m.role, text: textOf(m.content) })) }).toEqual({
      model: 'llama-guard-3-8b',
      temperature: 0,
      max: 64,
      messages: [{ role: 'user', text }],
    });
    expect(sent?.headers['authorization']).toBe('Bearer sk-guards-operator-000');
  });

  it('blocks an unsafe prompt, naming its categories', async () => {
    const text = 'Explain sim-violence, then sim-hate.';
    expect(await built.runner.run(guard, text, 'input', CONTEXT)).toEqual({
      verdict: { action: 'block', kinds: [LLAMA_GUARD_CATEGORIES.S1, LLAMA_GUARD_CATEGORIES.S10] },
      call: expectedCall(modelCheckRequest(guard, text, 'input', 'llama-guard'), 2, 'rosetta/llama-guard-3-8b'),
    });
  });

  it('classifies an answer as the assistant turn, and acts only on the categories the check names', async () => {
    const text = 'Sure: sim-crime is easy.';
    expect((await built.runner.run(guard, text, 'output', CONTEXT)).verdict).toEqual({ action: 'block', kinds: ['non_violent_crimes'] });
    const body = sim.requests()[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(body.messages[1]?.content)).toBe(text);
    expect((await built.runner.run({ ...guard, categories: ['S1'] }, text, 'output', CONTEXT)).verdict).toEqual({ action: 'allow' });
  });

  it('recognises a Llama Guard by its upstream name', async () => {
    const check: ModelCheck = { ...guard, model: 'rosetta/safety' };
    expect(await built.runner.run(check, 'sim-self-harm', 'input', CONTEXT)).toEqual({
      verdict: { action: 'block', kinds: ['self_harm'] },
      call: expectedCall(modelCheckRequest(check, 'sim-self-harm', 'input', 'llama-guard'), 2, 'rosetta/safety'),
    });
  });

  it('asks any other model with the rubric, and reads its categories', async () => {
    const text = 'a note about sim-weapons';
    expect(await built.runner.run(rubric, text, 'input', CONTEXT)).toEqual({
      verdict: { action: 'block', kinds: ['weapons'] },
      call: expectedCall(modelCheckRequest(rubric, text, 'input', 'rubric'), 2, 'rosetta/guard-mini'),
    });
    const body = sim.requests()[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(textOf(body.messages[1]?.content)).toBe(`<text>\n${text}\n</text>`);
    expect((await built.runner.run(rubric, 'a note about the weather', 'output', CONTEXT)).verdict).toEqual({ action: 'allow' });
  });

  it('answers a category the rubric did not list as bad_verdict, and still reports the call it paid for', async () => {
    const check: ModelCheck = { ...rubric, categories: ['hate'] };
    const text = 'sim-violence';
    expect(await built.runner.run(check, text, 'input', CONTEXT)).toEqual({
      verdict: { action: 'unavailable', reason: 'bad_verdict' },
      call: expectedCall(modelCheckRequest(check, text, 'input', 'rubric'), 2, 'rosetta/guard-mini'),
    });
  });

  it('sends at most the start and end of a huge text', async () => {
    const text = 'h'.repeat(MODEL_CHECK_HEAD_CHARS) + ' sim-violence '.repeat(100_000) + 't'.repeat(MODEL_CHECK_TAIL_CHARS);
    const result = await built.runner.run(guard, text, 'input', CONTEXT);
    expect(result).toEqual({ verdict: { action: 'allow' }, call: expectedCall(modelCheckRequest(guard, text, 'input', 'llama-guard'), 1, 'rosetta/llama-guard-3-8b') });
    expect(textOf((sim.requests()[0]?.body as { messages: Array<{ content: unknown }> }).messages[0]?.content).length).toBeLessThanOrEqual(MODEL_CHECK_HEAD_CHARS + MODEL_CHECK_TAIL_CHARS + 5);
  });

  it('answers an upstream failure as upstream_error, and an unknown model the same way', async () => {
    sim.script({ match: 'marker-fails', reply: { error: { status: 500, message: 'boom' } } });
    expect(await built.runner.run(guard, 'marker-fails', 'input', CONTEXT)).toEqual({ verdict: { action: 'unavailable', reason: 'upstream_error' } });
    expect(await built.runner.run({ ...guard, model: 'rosetta/no-such-guard' }, 'hello', 'input', CONTEXT)).toEqual({ verdict: { action: 'unavailable', reason: 'upstream_error' } });
  });

  it('makes no call for empty text or a client already gone', async () => {
    expect(await built.runner.run(guard, '  \n', 'input', CONTEXT)).toEqual({ verdict: { action: 'allow' } });
    const client = new AbortController();
    client.abort();
    expect(await built.runner.run(guard, 'hello', 'input', { ...CONTEXT, signal: client.signal })).toEqual({ verdict: { action: 'unavailable', reason: 'timeout' } });
    expect(sim.requests()).toEqual([]);
  });

  it('answers a classifier that never answers as timeout', async () => {
    const slow = await buildRunner(sim.url, 300);
    sim.script({ match: 'marker-hangs', reply: { fault: { kind: 'hang' } } });
    try {
      expect(await slow.runner.run(guard, 'marker-hangs', 'input', CONTEXT)).toEqual({ verdict: { action: 'unavailable', reason: 'timeout' } });
    } finally {
      await slow.transport.close();
    }
  });
});
