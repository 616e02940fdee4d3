import { randomBytes } from 'node:crypto';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';
import { createKey } from './support/gateway-process';
import { OPERATOR_KEYS, startStack, type Stack } from './support/stack';

/** OTLP span kinds and status codes. */
const SERVER = 2;
const CLIENT = 3;
const STATUS_ERROR = 2;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** The spans of one trace: the gateway's request span (SERVER) and its attempt spans (CLIENT), in start order. */
function traceOf(spans: ReceivedSpan[], traceId: string): { request: ReceivedSpan; attempts: ReceivedSpan[] } {
  const mine = spans.filter((s) => s.traceId === traceId);
  const request = mine.find((s) => s.kind === SERVER)!;
  return { request, attempts: mine.filter((s) => s.kind === CLIENT).sort((a, b) => Number(a.attributes['rosetta.attempt']) - Number(b.attributes['rosetta.attempt'])) };
}

/** The usage of an OpenAI stream's last chunk that has one. */
function streamedUsage(body: string): { prompt_tokens: number; completion_tokens: number } {
  const chunks = body
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));
  return chunks.filter((c) => c.usage).at(-1).usage;
}

/**
 * OpenTelemetry end to end: a real OTLP/HTTP receiver on loopback (test/support/otlp-receiver,
 * decoding both encodings itself), the gateway exporting to it, the simulator recording the
 * upstream requests. Spans are awaited by polling the receiver; the batch processor exports every
 * 100 ms here (OTEL_BSP_SCHEDULE_DELAY).
 */
describe.each(['http/protobuf', 'http/json'])('OpenTelemetry tracing over OTLP %s', (protocol) => {
  let receiver: OtlpReceiver;
  let stack: Stack;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_BSP_SCHEDULE_DELAY: '100' });
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('continues the caller’s trace, sends the attempt’s span upstream as parent, and carries the GenAI attributes without prompt text', async () => {
    const traceId = hex(16);
    const callerSpan = hex(8);
    const prompt = `a private question ${hex(6)}`;
    const res = await chat({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: prompt }] }, { traceparent: `00-${traceId}-${callerSpan}-01` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;

    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === SERVER));
    const { request, attempts } = traceOf(spans, traceId);
    expect(request.parentSpanId).toBe(callerSpan);
    expect(request.name).toBe('chat rosetta/gpt-4o-mini');
    expect(request.resource['service.name']).toBe('rosetta');
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'rosetta/gpt-4o-mini',
      'gen_ai.response.model': 'rosetta/gpt-4o-mini',
      'gen_ai.usage.input_tokens': body.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': body.usage.completion_tokens,
      'gen_ai.request.stream': false,
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
      'rosetta.request.id': res.headers.get('x-request-id'),
      'rosetta.attempts': 1,
    });
    expect(request.statusCode).not.toBe(STATUS_ERROR);

    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    expect(attempt!.parentSpanId).toBe(request.spanId);
    expect(attempt!.name).toBe('chat gpt-4o-mini');
    expect(attempt!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': body.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': body.usage.completion_tokens,
      'server.address': '127.0.0.1',
      'rosetta.model': 'rosetta/gpt-4o-mini',
    });

    // The upstream call carries the gateway's attempt span as its parent, not the caller's span.
    const upstream = stack.sim.requests().filter((r) => JSON.stringify(r.body).includes(prompt));
    expect(upstream.map((r) => r.headers['traceparent'])).toEqual([`00-${traceId}-${attempt!.spanId}-01`]);

    // No prompt or completion text, and no credential, anywhere in what was exported.
    const exported = JSON.stringify(spans.filter((s) => s.traceId === traceId));
    expect(exported).not.toContain(prompt);
    expect(exported).not.toContain(body.choices[0].message.content);
    expect(exported).not.toContain(stack.key);
    expect(exported).not.toContain(OPERATOR_KEYS.OPENAI_API_KEY);
    expect(new Set(receiver.contentTypes())).toEqual(new Set([protocol === 'http/json' ? 'application/json' : 'application/x-protobuf']));
  });

  it('gives each upstream attempt of a fallback its own child span, and a streamed request its final usage', async () => {
    const traceId = hex(16);
    const callerSpan = hex(8);
    const prompt = `fall back please ${hex(6)}`;
    // A 429 whose retry-after is too long to wait for: the executor moves to the next model at once.
    stack.sim.script({ match: prompt, model: 'gpt-4o-mini', reply: { error: { status: 429, message: 'slow down', retryAfterSeconds: 60 } } });
    const res = await chat(
      { model: 'rosetta/gpt-4o-mini', models: ['rosetta/claude-haiku-4-5'], stream: true, stream_options: { include_usage: true }, max_tokens: 64, messages: [{ role: 'user', content: prompt }] },
      { traceparent: `00-${traceId}-${callerSpan}-01` },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-rosetta-attempts')).toBe('2');
    const usage = streamedUsage(await res.text());

    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === SERVER));
    const { request, attempts } = traceOf(spans, traceId);
    expect(request.parentSpanId).toBe(callerSpan);
    expect(request.attributes).toMatchObject({
      'gen_ai.request.model': 'rosetta/gpt-4o-mini',
      'gen_ai.response.model': 'rosetta/claude-haiku-4-5',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.stream': true,
      'gen_ai.usage.input_tokens': usage.prompt_tokens,
      'gen_ai.usage.output_tokens': usage.completion_tokens,
      'rosetta.attempts': 2,
    });

    expect(attempts).toHaveLength(2);
    const [failed, served] = attempts;
    for (const attempt of attempts) expect(attempt.parentSpanId).toBe(request.spanId);
    expect(failed!.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'error.type': 'upstream_error' });
    expect(failed!.statusCode).toBe(STATUS_ERROR);
    expect(served!.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-haiku-4-5',
      'gen_ai.usage.input_tokens': usage.prompt_tokens,
      'gen_ai.usage.output_tokens': usage.completion_tokens,
    });
    expect(served!.attributes['error.type']).toBeUndefined();

    // Each upstream request names its own attempt's span.
    const upstream = stack.sim.requests().filter((r) => JSON.stringify(r.body).includes(prompt));
    expect(upstream.map((r) => [r.protocol, r.headers['traceparent']])).toEqual([
      ['openai', `00-${traceId}-${failed!.spanId}-01`],
      ['anthropic', `00-${traceId}-${served!.spanId}-01`],
    ]);
    expect(JSON.stringify(spans.filter((s) => s.traceId === traceId))).not.toContain(prompt);
  });

  it('starts a new trace for a malformed traceparent, and records a refused request’s error type', async () => {
    const res = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer rsk_not_a_key', 'content-type': 'application/json', traceparent: '00-not-a-trace-01' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(401);
    const id = res.headers.get('x-request-id');
    const spans = await receiver.waitFor((all) => all.some((s) => s.attributes['rosetta.request.id'] === id));
    const request = spans.find((s) => s.attributes['rosetta.request.id'] === id)!;
    expect(request.parentSpanId).toBe('');
    expect(request.attributes).toMatchObject({ 'http.response.status_code': 401, 'error.type': 'authentication_error' });
    // A 4xx is the caller's doing: not an error of the gateway's span.
    expect(request.statusCode).not.toBe(STATUS_ERROR);
    expect(spans.filter((s) => s.traceId === request.traceId)).toHaveLength(1);
  });
});

describe('OpenTelemetry content capture, shutdown, and off by default', () => {
  let receiver: OtlpReceiver;
  let capturing: Stack;
  let untraced: Stack;
  let stopping: Stack;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    [capturing, untraced, stopping] = await Promise.all([
      startStack({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: 'rosetta-eu-1',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      }),
      startStack(),
      // No scheduled export within the test: only the flush at shutdown can deliver its spans.
      startStack({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, OTEL_BSP_SCHEDULE_DELAY: '600000' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([capturing?.stop(), untraced?.stop(), stopping?.stop()]);
    await receiver?.close();
  });

  const ask = (stack: Stack, content: string, traceparent: string, key = stack.key, stream = false) =>
    fetch(`${stack.gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', traceparent },
      body: JSON.stringify({ model: 'rosetta/gemini-2.5-flash', max_tokens: 64, system: 'be brief', stream, messages: [{ role: 'user', content }] }),
    });

  it('puts prompt and completion text in the span only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true', async () => {
    const traceId = hex(16);
    const prompt = `capture me ${hex(6)}`;
    const res = await ask(capturing, prompt, `00-${traceId}-${hex(8)}-01`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === SERVER));
    const { request, attempts } = traceOf(spans, traceId);
    expect(request.resource['service.name']).toBe('rosetta-eu-1');
    expect(request.attributes['gen_ai.provider.name']).toBe('gcp.gemini');
    expect(JSON.parse(String(request.attributes['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: 'be brief' }]);
    expect(JSON.parse(String(request.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]);
    expect(JSON.parse(String(request.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: body.content[0].text }], finish_reason: 'stop' },
    ]);
    expect(attempts.map((a) => a.attributes['gen_ai.provider.name'])).toEqual(['gcp.gemini']);
  });

  it('captures the prompt and the answer as the guardrails left them: redacted, and nothing of what a check blocked', async () => {
    const redacting = await createKey(capturing.gateway, 'enterprise', { guardrails: [{ check: 'pii', on: 'both', action: 'redact', kinds: ['email'] }] });
    const marker = `traced-guarded-${hex(4)}`;
    capturing.sim.script({ match: marker, reply: { text: 'Answer carol@corp.example soon.' } });
    const traceId = hex(16);
    const res = await ask(capturing, `${marker} from dave@corp.example`, `00-${traceId}-${hex(8)}-01`, redacting.key);
    expect(res.status).toBe(200);
    await res.text();
    const { request } = traceOf(await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === SERVER)), traceId);
    expect(JSON.parse(String(request.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: `${marker} from [REDACTED:email]` }] }]);
    expect(JSON.parse(String(request.attributes['gen_ai.output.messages']))).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Answer [REDACTED:email] soon.' }], finish_reason: 'stop' }]);

    // Blocked on input (no prompt captured), and on output in a stream (no answer captured).
    const blocking = await createKey(capturing.gateway, 'enterprise', { guardrails: [{ check: 'secrets', on: 'input', action: 'block' }, { check: 'pii', on: 'output', action: 'block', kinds: ['email'] }] });
    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const inTrace = hex(16);
    expect((await ask(capturing, `${marker} use ${secret}`, `00-${inTrace}-${hex(8)}-01`, blocking.key)).status).toBe(400);
    const outTrace = hex(16);
    const streamed = await ask(capturing, `${marker} stream it`, `00-${outTrace}-${hex(8)}-01`, blocking.key, true);
    expect(await streamed.text()).toContain('guardrail_violation');
    const spans = await receiver.waitFor((all) => [inTrace, outTrace].every((id) => all.some((s) => s.traceId === id && s.kind === SERVER)));
    const blockedIn = traceOf(spans, inTrace).request;
    const blockedOut = traceOf(spans, outTrace).request;
    expect([blockedIn.attributes['gen_ai.input.messages'], blockedIn.attributes['error.type']]).toEqual([undefined, 'guardrail_violation']);
    expect([blockedOut.attributes['gen_ai.output.messages'], blockedOut.attributes['error.type']]).toEqual([undefined, 'guardrail_violation']);
    const exported = JSON.stringify(spans.filter((s) => s.traceId === inTrace || s.traceId === outTrace));
    expect(exported).not.toContain(secret);
    expect(exported).not.toContain('carol@');
  });

  it('flushes the spans still batched when the gateway shuts down', async () => {
    const traceId = hex(16);
    const res = await ask(stopping, 'shut down after this', `00-${traceId}-${hex(8)}-01`);
    expect(res.status).toBe(200);
    await res.text();
    expect(await stopping.gateway.stop()).toBe(0);
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === SERVER));
    expect(traceOf(spans, traceId).attempts).toHaveLength(1);
  });

  it('off (no OTLP endpoint), nothing is traced and no traceparent goes upstream, not even the caller’s', async () => {
    const prompt = `untraced ${hex(6)}`;
    const res = await ask(untraced, prompt, `00-${hex(16)}-${hex(8)}-01`);
    expect(res.status).toBe(200);
    const [upstream] = untraced.sim.requests().filter((r) => JSON.stringify(r.body).includes(prompt));
    expect(upstream!.headers['traceparent']).toBeUndefined();
    expect(upstream!.headers['tracestate']).toBeUndefined();
  });
});
