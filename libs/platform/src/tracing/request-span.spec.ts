import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import type { IncomingMessage } from 'node:http';
import { openRequestSpan, RequestSpan, type TracingSdk } from './request-span';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER = 'b7ad6b7169203331';
const TARGET = { provider: 'gemini', upstreamModel: 'gemini-2.5-flash', baseUrl: 'https://generativelanguage.googleapis.com' };

describe('RequestSpan', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const sdk: TracingSdk = { tracer: provider.getTracer('test'), propagator: new W3CTraceContextPropagator() };

  function open(traceparent: string, capture = false): RequestSpan {
    const parent = sdk.propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
    return new RequestSpan(sdk, sdk.tracer.startSpan('chat', { kind: SpanKind.SERVER }, parent), capture);
  }

  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it('settles a streamed attempt with the final usage when the response closes, and a disconnect is no server error', () => {
    const request = open(`00-${TRACE}-${CALLER}-01`);
    const attempt = request.attempt('rosetta/gemini-2.5-flash', TARGET, 1);
    expect(attempt.headers.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    request.end(200, { requestedModel: 'rosetta/auto', servedModel: 'rosetta/gemini-2.5-flash', provider: 'gemini', attempts: 1, streamed: true, usage: { inputTokens: 12, outputTokens: 30 }, ttftMs: 250 }, true);

    const [served, server] = exporter.getFinishedSpans();
    expect(served!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId);
    expect(attempt.headers.traceparent).toBe(`00-${TRACE}-${served!.spanContext().spanId}-01`);
    expect(served!.attributes).toMatchObject({ 'gen_ai.provider.name': 'gcp.gemini', 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 30, 'error.type': 'client_disconnected', 'server.port': 443 });
    expect(server!.name).toBe('chat rosetta/auto');
    expect(server!.parentSpanContext?.spanId).toBe(CALLER);
    expect(server!.attributes).toMatchObject({ 'gen_ai.response.model': 'rosetta/gemini-2.5-flash', 'gen_ai.response.time_to_first_chunk': 0.25, 'error.type': 'client_disconnected' });
    expect(server!.status.code).toBe(SpanStatusCode.UNSET);
    expect(served!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records nothing for a caller that sampled its trace out, but still passes the trace on upstream', () => {
    const request = open(`00-${TRACE}-${CALLER}-00`);
    const attempt = request.attempt('rosetta/gemini-2.5-flash', TARGET, 1);
    request.answered({ model: 'gemini-2.5-flash', usage: { inputTokens: 1, outputTokens: 1 } });
    request.end(200, { attempts: 1, streamed: false }, false);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(attempt.headers.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
  });

  it('a stream that failed after its 200 is an error; captured output is collected as it passes', async () => {
    const request = open(`00-${TRACE}-${CALLER}-01`, true);
    request.attempt('rosetta/gemini-2.5-flash', TARGET, 1);
    const events: StreamEvent[] = [
      { type: 'text-delta', index: 0, text: 'Hel' },
      { type: 'text-delta', index: 0, text: 'lo' },
      { type: 'finish', finishReason: { unified: 'stop' } },
    ];
    const relayed: StreamEvent[] = [];
    for await (const event of request.outputStream((async function* () { yield* events; })())) relayed.push(event);
    expect(relayed).toEqual(events);
    request.end(200, { attempts: 1, streamed: true, errorType: 'upstream_error' }, false);
    const [attempt, server] = exporter.getFinishedSpans();
    expect(server!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempt!.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.parse(String(server!.attributes['gen_ai.output.messages']))).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Hello' }], finish_reason: 'stop' }]);
  });

  it('captures nothing of a stream a guardrail blocked (a check at the finish blocks after the text went out)', async () => {
    const request = open(`00-${TRACE}-${CALLER}-01`, true);
    request.attempt('rosetta/gemini-2.5-flash', TARGET, 1);
    const events: StreamEvent[] = [
      { type: 'text-delta', index: 0, text: 'mail bob@corp.example' },
      { type: 'error', error: new GatewayError('guardrail_violation', "Blocked by the key's guardrail 0 (webhook) on output.") },
    ];
    for await (const event of request.outputStream((async function* () { yield* events; })())) void event;
    request.end(200, { attempts: 1, streamed: true, errorType: 'guardrail_violation' }, false);
    const [, server] = exporter.getFinishedSpans();
    expect(server!.attributes['gen_ai.output.messages']).toBeUndefined();
    expect(server!.attributes['error.type']).toBe('guardrail_violation');
  });

  it('names an embeddings request and its attempts by the embeddings operation', () => {
    const req = { headers: {}, method: 'POST', httpVersion: '1.1', socket: {} } as unknown as IncomingMessage;
    const request = openRequestSpan(sdk, req, 'req_1', '/v1beta/models/rosetta/gemini-embedding-001:batchEmbedContents', '/v1beta/models/{path}', false);
    request.attempt('rosetta/gemini-embedding-001', { ...TARGET, upstreamModel: 'gemini-embedding-001' }, 1, 'embeddings');
    request.answered({ model: 'gemini-embedding-001', usage: { inputTokens: 7, outputTokens: 0 } });
    request.end(200, { requestedModel: 'rosetta/gemini-embedding-001', servedModel: 'rosetta/gemini-embedding-001', provider: 'gemini', attempts: 1, streamed: false, usage: { inputTokens: 7, outputTokens: 0 } }, false);
    const [attempt, server] = exporter.getFinishedSpans();
    expect([attempt!.name, attempt!.attributes['gen_ai.operation.name']]).toEqual(['embeddings gemini-embedding-001', 'embeddings']);
    expect([server!.name, server!.attributes['gen_ai.operation.name'], server!.attributes['http.route']]).toEqual([
      'embeddings rosetta/gemini-embedding-001',
      'embeddings',
      '/v1beta/models/{model}:batchEmbedContents',
    ]);
  });

  it('names the route by its template: no response id or model in http.route, and Gemini methods kept', () => {
    const req = { headers: {}, method: 'GET', httpVersion: '1.1', socket: {} } as unknown as IncomingMessage;
    const routes: Array<[string, string]> = [
      ['/v1/responses/resp_0123456789abcdef/input_items', '/v1/responses/{response_id}/input_items'],
      ['/v1beta/models/rosetta/gemini-2.5-flash:countTokens', '/v1beta/models/{path}'],
      ['/v1beta/models/rosetta/gemini-2.5-flash', '/v1beta/models/{path}'],
      ['/v1/chat/completions', '/v1/chat/completions'],
    ];
    for (const [path, route] of routes) openRequestSpan(sdk, req, 'req_1', path, route, false).end(200, undefined, false);
    expect(exporter.getFinishedSpans().map((span) => span.attributes['http.route'])).toEqual([
      '/v1/responses/{response_id}/input_items',
      '/v1beta/models/{model}:countTokens',
      '/v1beta/models/{model}',
      '/v1/chat/completions',
    ]);
  });
});
