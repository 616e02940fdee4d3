import { GatewayError, type CanonicalRequest, type StreamEvent } from '@rosetta/canonical';
import { loadConfig } from '@rosetta/platform';
import { AbortLine, upstreamHttpError, upstreamTimeout, type ProviderAdapter, type UpstreamCall, type UpstreamEmbeddingCall, type UpstreamTarget } from '@rosetta/providers';
import type { Attempt, RoutePlan } from './attempt';
import { ClientAbortedError, ExecutorService } from './executor.service';
import { CircuitBreakerService } from './health/circuit-breaker.service';
import { EndpointHealthService } from './health/endpoint-health.service';
import { LiveEndpointHealth } from './health-port.module';
import type { RegistryService } from '@rosetta/registry';
import type { CallContext } from './outcome';
import { UsageDraft } from '@rosetta/usage';

/** What the fake upstream does for one call, by upstream model. */
type Behaviour = (call: UpstreamCall) => Promise<StreamEvent[]> | StreamEvent[];

const ANSWER: StreamEvent[] = [
  { type: 'start', id: 'x', model: 'm', created: 0 },
  { type: 'text-delta', index: 0, text: 'hello' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } },
];

class FakeAdapter implements ProviderAdapter {
  readonly protocol = 'openai' as const;
  readonly calls: UpstreamCall[] = [];
  constructor(private readonly behaviours: Record<string, Behaviour>) {}

  async complete(call: UpstreamCall) {
    this.calls.push(call);
    const events = await this.behaviours[call.target.upstreamModel]!(call);
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    return { response: { id: 'r', model: 'm', created: 0, content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: 'stop' } }, warnings: [] };
  }

  async stream(call: UpstreamCall) {
    this.calls.push(call);
    const events = await this.behaviours[call.target.upstreamModel]!(call);
    return { events: from(events), warnings: [] };
  }

  /** One vector per input, [index, input length], whatever the behaviour's events. */
  async embed(call: UpstreamEmbeddingCall) {
    this.calls.push(call as unknown as UpstreamCall);
    await this.behaviours[call.target.upstreamModel]!(call as unknown as UpstreamCall);
    const embeddings = call.request.inputs.map((input, i) => [i, input.type === 'text' ? input.text.length : input.tokens.length]);
    return { response: { model: call.target.upstreamModel, embeddings }, warnings: [] };
  }
}

async function* from(events: StreamEvent[]): AsyncGenerator<StreamEvent> {
  for (const event of events) yield event;
}

const clock = { now: 1_000_000 };

function setup(behaviours: Record<string, Behaviour>, consecutiveFailures = 1) {
  const breaker = new CircuitBreakerService({ consecutiveFailures, cooldownMs: 1_000, clock: () => clock.now });
  const stats = new EndpointHealthService(null, breaker, undefined, { clock: () => clock.now, autoStart: false });
  const health = new LiveEndpointHealth(stats, breaker, { list: () => [] } as unknown as RegistryService);
  const adapter = new FakeAdapter(behaviours);
  const config = loadConfig({ UPSTREAM_FALLBACK_FIRST_BYTE_MS: '1500' });
  const executor = new ExecutorService(new Map([['openai', adapter]]), health, config);
  return { breaker, adapter, executor, config };
}

function target(upstreamModel: string, config = loadConfig({ UPSTREAM_FALLBACK_FIRST_BYTE_MS: '1500' })): UpstreamTarget {
  return { provider: 'acme', protocol: 'openai', baseUrl: 'https://acme.example/v1', apiKey: 'sk-operator-000000', upstreamModel, timeouts: config.timeouts };
}

function plan(...models: string[]): RoutePlan {
  const attempts: Attempt[] = models.map((m) => ({ model: `rosetta/${m}`, key: `acme/${m}`, target: target(m), pricing: { prompt: '0', completion: '0' } }));
  return { attempts };
}

function request(stream = false, routing: CanonicalRequest['routing'] = {}): CanonicalRequest {
  return { model: 'rosetta/a', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream, routing };
}

function context(signal = new AbortLine()): CallContext {
  return { requestId: 'req_test', signal };
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

const fail500: Behaviour = () => {
  throw upstreamHttpError(500, 'boom');
};
const ok: Behaviour = () => ANSWER;

/** Opens `key`'s circuit and moves the clock past its cool-down: the next acquire is the probe. */
function halfOpen(breaker: CircuitBreakerService, key: string): void {
  breaker.record(key, true, clock.now);
  clock.now += 1_001;
  expect(breaker.state(key)).toBe('half-open');
}

beforeEach(() => {
  clock.now += 60_000;
});

describe('ExecutorService: local failures never touch endpoint health', () => {
  it('answers a failure of the gateway itself as a local error, without retry, fallback or a health report', async () => {
    const { executor, breaker, adapter } = setup({
      a: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
      b: ok,
    });
    for (let i = 0; i < 5; i++) {
      await expect(executor.complete(plan('a', 'b'), request(), context())).rejects.toMatchObject({ type: 'api_error', local: true, status: 500 });
    }
    expect(adapter.calls.map((c) => c.target.upstreamModel)).toEqual(['a', 'a', 'a', 'a', 'a']);
    expect(breaker.state('acme/a')).toBe('closed');
    expect(breaker.info('acme/a').consecutiveFailures).toBe(0);
  });

  it('counts an upstream 5xx against the endpoint and falls back', async () => {
    const { executor, breaker, adapter } = setup({ a: fail500, b: ok });
    const outcome = await executor.complete(plan('a', 'b'), request(), context());
    expect(outcome.meta.model).toBe('rosetta/b');
    expect(adapter.calls.map((c) => c.target.upstreamModel)).toEqual(['a', 'b']);
    expect(breaker.state('acme/a')).toBe('open');
  });

  it("never reports calls made with the caller's own key (a tenant cannot open the operator's circuit)", async () => {
    const { executor, breaker } = setup({ a: fail500 });
    const byok = request(false, { providerConfigs: { acme: { api_key: 'sk-callers-own-key' } } });
    await expect(executor.complete(plan('a'), byok, context())).rejects.toMatchObject({ status: 502 });
    expect(breaker.state('acme/a')).toBe('closed');
  });
});

describe('ExecutorService: every path gives back the half-open probe it took', () => {
  it('a bad provider override (400) takes no probe', async () => {
    const { executor, breaker } = setup({ a: ok });
    halfOpen(breaker, 'acme/a');
    const bad = request(false, { providerConfigs: { acme: { base_url: 'https://evil.example/v1' } } });
    await expect(executor.complete(plan('a'), bad, context())).rejects.toMatchObject({ status: 400, param: 'provider_configs.acme.base_url' });
    expect(breaker.info('acme/a').probeInFlight).toBe(false);
    await expect(executor.complete(plan('a'), request(), context())).resolves.toMatchObject({ meta: { model: 'rosetta/a' } });
    expect(breaker.state('acme/a')).toBe('closed');
  });

  it('a client already gone when the attempt starts releases the probe', async () => {
    const { executor, breaker } = setup({ a: ok });
    halfOpen(breaker, 'acme/a');
    const gone = new AbortLine();
    gone.abort();
    await expect(executor.complete(plan('a'), request(), context(gone))).rejects.toBeInstanceOf(ClientAbortedError);
    expect(breaker.info('acme/a').probeInFlight).toBe(false);
  });

  it('a client leaving during the upstream call releases the probe', async () => {
    const client = new AbortLine();
    const { executor, breaker } = setup({
      a: (call) =>
        new Promise((_, reject) => {
          call.signal.once('abort', () => reject(new DOMException('aborted', 'AbortError')));
          client.abort();
        }),
    });
    halfOpen(breaker, 'acme/a');
    await expect(executor.complete(plan('a'), request(), context(client))).rejects.toBeInstanceOf(ClientAbortedError);
    expect(breaker.info('acme/a').probeInFlight).toBe(false);
  });

  it('a local failure releases the probe', async () => {
    const { executor, breaker } = setup({
      a: () => {
        throw new TypeError('bug');
      },
    });
    halfOpen(breaker, 'acme/a');
    await expect(executor.complete(plan('a'), request(), context())).rejects.toMatchObject({ local: true });
    expect(breaker.info('acme/a').probeInFlight).toBe(false);
    expect(breaker.state('acme/a')).toBe('half-open');
  });

  it('a stream the client leaves mid-way releases the probe; one that finishes closes the circuit', async () => {
    const { executor, breaker } = setup({ a: ok });
    halfOpen(breaker, 'acme/a');
    const client = new AbortLine();
    const outcome = await executor.stream(plan('a'), request(true), context(client));
    const iterator = outcome.events[Symbol.asyncIterator]();
    await iterator.next();
    client.abort();
    await iterator.return?.(undefined);
    expect(breaker.info('acme/a').probeInFlight).toBe(false);
    expect(breaker.state('acme/a')).toBe('half-open');
    const second = await executor.stream(plan('a'), request(true), context());
    await drain(second.events);
    expect(breaker.state('acme/a')).toBe('closed');
  });
});

describe('ExecutorService: silent and truncated upstreams', () => {
  it('gives a streamed attempt with a candidate behind it the watchdog as its first-byte time-out', async () => {
    const { executor, adapter, config } = setup({ a: ok, b: ok });
    await drain((await executor.stream(plan('a', 'b'), request(true), context())).events);
    await drain((await executor.stream(plan('a'), request(true), context())).events);
    await executor.complete(plan('a', 'b'), request(false), context());
    expect(adapter.calls.map((c) => c.target.timeouts.firstByteMs)).toEqual([1_500, config.timeouts.firstByteMs, config.timeouts.firstByteMs]);
  });

  it('moves straight to the next candidate after a time-out instead of waiting on the same endpoint again', async () => {
    const { executor, adapter } = setup({
      a: () => {
        throw upstreamTimeout('the first byte');
      },
      b: ok,
    });
    const outcome = await executor.stream(plan('a', 'b'), request(true), context());
    expect(outcome.meta).toMatchObject({ model: 'rosetta/b', attempts: 2 });
    expect(adapter.calls.map((c) => c.target.upstreamModel)).toEqual(['a', 'b']);
  });

  it('retries the same endpoint after a time-out when it is the only candidate', async () => {
    let calls = 0;
    const { executor } = setup({
      a: () => {
        calls++;
        if (calls === 1) throw upstreamTimeout('the first byte');
        return ANSWER;
      },
    }, 5);
    const outcome = await executor.complete(plan('a'), request(), context());
    expect(outcome.meta.attempts).toBe(2);
  });

  it('ends a stream the upstream closed before finishing with an error event, and counts it', async () => {
    const { executor, breaker } = setup({ a: () => ANSWER.slice(0, 2) });
    const events = await drain((await executor.stream(plan('a'), request(true), context())).events);
    expect(events.at(-1)).toEqual({ type: 'error', error: expect.objectContaining({ type: 'upstream_error', status: 502, message: expect.stringMatching(/ended before the answer was complete/) }) });
    expect(events.some((e) => e.type === 'finish')).toBe(false);
    expect(breaker.state('acme/a')).toBe('open');
  });

  it('keeps the first error event of a stream and reports it once', async () => {
    const { executor, breaker } = setup({ a: () => [...ANSWER.slice(0, 2), { type: 'error', error: new GatewayError('overloaded_error', 'busy', { status: 529 }) }] });
    const events = await drain((await executor.stream(plan('a'), request(true), context())).events);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(breaker.state('acme/a')).toBe('open');
  });
});

describe('ExecutorService: retries and fallbacks, on a fake clock', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: clock.now });
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  const calls = (adapter: FakeAdapter): string[] => adapter.calls.map((c) => c.target.upstreamModel);

  it('retries a 5xx once on the same endpoint after a jittered backoff, then falls back', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5); // full jitter: half of the 200 ms base
    const { executor, adapter } = setup({ a: fail500, b: ok }, 5);
    const pending = executor.complete(plan('a', 'b'), request(), context());
    await jest.advanceTimersByTimeAsync(99);
    expect(calls(adapter)).toEqual(['a']);
    await jest.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ meta: { model: 'rosetta/b', attempts: 3 } });
    expect(calls(adapter)).toEqual(['a', 'a', 'b']);
  });

  it("waits out a short retry-after on the same endpoint, and moves on at once past a long one", async () => {
    let first = true;
    const busyOnce: Behaviour = () => {
      if (!first) return ANSWER;
      first = false;
      throw upstreamHttpError(429, 'slow down', { retryAfterMs: 1_500 });
    };
    const short = setup({ a: busyOnce, b: ok }, 5);
    const pending = short.executor.complete(plan('a', 'b'), request(), context());
    await jest.advanceTimersByTimeAsync(1_499);
    expect(calls(short.adapter)).toEqual(['a']);
    await jest.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ meta: { model: 'rosetta/a', attempts: 2 } });

    const long = setup({ a: () => Promise.reject(upstreamHttpError(429, 'come back tomorrow', { retryAfterMs: 60_000 })), b: ok }, 5);
    await expect(long.executor.complete(plan('a', 'b'), request(), context())).resolves.toMatchObject({ meta: { model: 'rosetta/b' } });
    expect(calls(long.adapter)).toEqual(['a', 'b']);
  });

  it('ends at once, with no further attempt and no timer left, when the client leaves during a backoff', async () => {
    const { executor, adapter } = setup({ a: () => Promise.reject(upstreamHttpError(503, 'busy', { retryAfterMs: 2_000 })), b: ok }, 5);
    const client = new AbortLine();
    const pending = executor.complete(plan('a', 'b'), request(), context(client));
    const outcome = expect(pending).rejects.toBeInstanceOf(ClientAbortedError);
    await jest.advanceTimersByTimeAsync(500);
    client.abort();
    await outcome;
    expect(calls(adapter)).toEqual(['a']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('does not retry, count or fall back from a refusal of the request itself (a 4xx)', async () => {
    const { executor, adapter, breaker } = setup({ a: () => Promise.reject(upstreamHttpError(400, 'max_tokens is too large')), b: ok });
    await expect(executor.complete(plan('a', 'b'), request(), context())).rejects.toMatchObject({ status: 400, message: 'Upstream service error: max_tokens is too large' });
    expect(calls(adapter)).toEqual(['a']);
    expect(breaker.info('acme/a').consecutiveFailures).toBe(0);
  });

  it('answers the last failure when every endpoint fails, each attempt noted on the ledger draft', async () => {
    const { executor } = setup({ a: fail500, b: fail500 });
    const usage = new UsageDraft({ requestId: 'req_test', dialect: 'openai' });
    await expect(executor.complete(plan('a', 'b'), request(), { ...context(), usage })).rejects.toMatchObject({ status: 502, message: 'Upstream service error: boom' });
    expect({ attempts: usage.attempts, provider: usage.provider }).toEqual({ attempts: 2, provider: 'acme' });
  });

  it('is 503 without calling anyone when every circuit is open', async () => {
    const { executor, adapter, breaker } = setup({ a: ok, b: ok });
    breaker.record('acme/a', true, clock.now);
    breaker.record('acme/b', true, clock.now);
    await expect(executor.complete(plan('a', 'b'), request(), context())).rejects.toMatchObject({ status: 503, type: 'overloaded_error' });
    expect(calls(adapter)).toEqual([]);
  });
});

describe('ExecutorService: embeddings take the same attempts, retries, fallbacks and breakers', () => {
  const embedding = { model: 'rosetta/a', inputs: [{ type: 'text' as const, text: 'abc' }], routing: {} };

  it('answers with the served public model and no upstream usage of its own', async () => {
    const { executor } = setup({ a: ok });
    expect(await executor.embed(plan('a'), embedding, context())).toEqual({
      response: { model: 'rosetta/a', embeddings: [[0, 3]] },
      meta: { model: 'rosetta/a', provider: 'acme', protocol: 'openai', pricing: { prompt: '0', completion: '0' }, attempts: 1, route: undefined, warnings: [] },
    });
  });

  it('falls back from an upstream 5xx, opening the failing circuit', async () => {
    const { executor, breaker, adapter } = setup({ a: fail500, b: ok });
    const outcome = await executor.embed(plan('a', 'b'), embedding, context());
    expect([outcome.meta.model, outcome.meta.attempts]).toEqual(['rosetta/b', 2]);
    expect(adapter.calls.map((c) => c.target.upstreamModel)).toEqual(['a', 'b']);
    expect(breaker.state('acme/a')).toBe('open');
  });

  it("applies the caller's provider_configs key to the attempt, as for chat", async () => {
    const { executor, adapter } = setup({ a: ok });
    await executor.embed(plan('a'), { ...embedding, routing: { providerConfigs: { acme: { api_key: 'sk-callers-own-key' } } } }, context());
    expect(adapter.calls[0]!.target.apiKey).toBe('sk-callers-own-key');
  });
});

describe('ExecutorService: no request outlives its budget hold (issue 26)', () => {
  it('caps a caller endpoint_overrides timeout at the operator total time-out', async () => {
    const { executor, adapter, config } = setup({ a: ok });
    const routing = { providerConfigs: { acme: { endpoint_overrides: { 'rosetta/a': { timeout: 2 ** 31 } } } } };
    await executor.complete(plan('a'), request(false, routing), context());
    expect(adapter.calls[0]!.target.timeouts.totalMs).toBe(config.timeouts.totalMs);
    const shorter = { providerConfigs: { acme: { endpoint_overrides: { 'rosetta/a': { timeout: 250 } } } } };
    await executor.complete(plan('a'), request(false, shorter), context());
    expect(adapter.calls[1]!.target.timeouts.totalMs).toBe(250);
  });

  it('starts no attempt once the operator total time-out since the request began has run out', async () => {
    const { executor, adapter, config } = setup({ a: ok });
    const usage = new UsageDraft({ requestId: 'req_old', dialect: 'openai', startedAt: Date.now() - config.timeouts.totalMs - 1 });
    await expect(executor.complete(plan('a'), request(), { ...context(), usage })).rejects.toMatchObject({ status: 504, type: 'upstream_error' });
    expect(adapter.calls).toEqual([]);
  });
});
