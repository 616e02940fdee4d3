import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
import type { CanonicalRequest, CanonicalResponse, StreamEvent, Usage } from '@rosetta/canonical';
import { GatewayError } from '@rosetta/canonical';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';
import type { IncomingMessage } from 'node:http';
import { AttemptSpan, setUsage, type AttemptAnswer } from './attempt-span';
import { inputContent, outputContent, tapStreamContent } from './content-capture';
import {
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OPERATION_NAME,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_REQUEST_STREAM,
  GEN_AI_RESPONSE_MODEL,
  GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  GEN_AI_SYSTEM_INSTRUCTIONS,
  genAiProviderName,
  ROSETTA_ATTEMPT,
  ROSETTA_ATTEMPTS,
  ROSETTA_DIALECT,
  ROSETTA_MODEL,
  ROSETTA_PROVIDER,
  ROSETTA_REQUEST_ID,
  ROSETTA_ROUTE,
} from './gen-ai-attributes';

/** What the spans need of the SDK: a tracer and the W3C propagator. */
export interface TracingSdk {
  tracer: Tracer;
  propagator: TextMapPropagator;
}

/** What the request's usage-ledger draft (UsageDraft) knows once its response has closed. */
export interface RequestOutcome {
  dialect?: string;
  requestedModel?: string;
  servedModel?: string;
  provider?: string;
  attempts: number;
  streamed: boolean;
  route?: string;
  usage?: Usage;
  ttftMs?: number;
  errorType?: string;
}

/** Where an attempt goes: the upstream endpoint, without its key. */
export interface AttemptTarget {
  provider: string;
  upstreamModel: string;
  baseUrl: string;
}

/**
 * One client request to a chat route: a SERVER span, the child of the caller's `traceparent` when
 * it sent a valid one, named `chat <model>` by the GenAI conventions once the model is known. It
 * opens one AttemptSpan per upstream attempt and ends when the response closes, with what the
 * ledger draft then holds (served model, provider, tokens, error type).
 */
export class RequestSpan {
  private readonly context: Context;
  /** The latest attempt: earlier ones have always ended before the next begins. */
  private current?: AttemptSpan;
  private errorType?: string;

  constructor(
    private readonly sdk: TracingSdk,
    private readonly span: Span,
    readonly captureContent: boolean,
    /** The GenAI operation (`chat`, or `embeddings` on the embeddings routes). */
    private readonly operation = 'chat',
  ) {
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  /** Opens the span of one upstream attempt; its W3C headers go with the upstream request. */
  attempt(model: string, target: AttemptTarget, number: number, operation = 'chat'): AttemptSpan {
    const attributes: Record<string, string | number> = {
      [GEN_AI_OPERATION_NAME]: operation,
      [GEN_AI_PROVIDER_NAME]: genAiProviderName(target.provider),
      [GEN_AI_REQUEST_MODEL]: target.upstreamModel,
      [ROSETTA_PROVIDER]: target.provider,
      [ROSETTA_MODEL]: model,
      [ROSETTA_ATTEMPT]: number,
    };
    const server = serverOf(target.baseUrl);
    if (server) {
      attributes[ATTR_SERVER_ADDRESS] = server.address;
      attributes[ATTR_SERVER_PORT] = server.port;
    }
    const span = this.sdk.tracer.startSpan(`${operation} ${target.upstreamModel}`, { kind: SpanKind.CLIENT, attributes }, this.context);
    const headers: Record<string, string> = {};
    this.sdk.propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
    this.current = new AttemptSpan(span, headers);
    return this.current;
  }

  /** The current attempt's whole answer arrived (a streamed attempt is settled at the end instead). */
  answered(answer: AttemptAnswer): void {
    this.current?.answered(answer);
  }

  /** The request failed before or outside the upstream call (key, limits, validation). */
  fail(error: unknown): void {
    if (error instanceof GatewayError) this.errorType = error.type;
  }

  input(request: CanonicalRequest): void {
    if (!this.captureContent) return;
    const { system, messages } = inputContent(request);
    if (system) this.span.setAttribute(GEN_AI_SYSTEM_INSTRUCTIONS, system);
    this.span.setAttribute(GEN_AI_INPUT_MESSAGES, messages);
  }

  output(response: CanonicalResponse): void {
    if (this.captureContent) this.span.setAttribute(GEN_AI_OUTPUT_MESSAGES, outputContent(response));
  }

  outputStream(events: AsyncIterable<StreamEvent>): AsyncIterable<StreamEvent> {
    if (!this.captureContent) return events;
    return tapStreamContent(events, (output) => this.span.setAttribute(GEN_AI_OUTPUT_MESSAGES, output));
  }

  /** The response closed: `outcome` is the ledger draft (absent when the request never got that far). */
  end(status: number, outcome: RequestOutcome | undefined, disconnected: boolean): void {
    const span = this.span;
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    if (outcome) describeOutcome(span, outcome, this.operation);
    const error = disconnected ? 'client_disconnected' : (outcome?.errorType ?? this.errorType ?? (status >= 400 ? String(status) : undefined));
    if (error) span.setAttribute(ATTR_ERROR_TYPE, error);
    // HTTP server conventions: a 4xx is the caller's doing, not the server's error; a stream that
    // failed after its 200 went out is.
    if (!disconnected && (status >= 500 || (status < 400 && error))) span.setStatus({ code: SpanStatusCode.ERROR });
    this.current?.settle(outcome?.usage, error);
    span.end();
  }
}

/**
 * Opens the span of one chat request, continuing the caller's trace when its `traceparent` is
 * valid (a malformed one starts a new trace).
 */
export function openRequestSpan(sdk: TracingSdk, req: IncomingMessage, id: string, path: string, route: string, captureContent: boolean): RequestSpan {
  const parent = sdk.propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
  const operation = operationOf(path);
  const attributes: Record<string, string> = {
    [GEN_AI_OPERATION_NAME]: operation,
    [ATTR_HTTP_REQUEST_METHOD]: req.method ?? 'POST',
    [ATTR_HTTP_ROUTE]: routeOf(route, path),
    [ATTR_URL_PATH]: path,
    [ATTR_URL_SCHEME]: 'http',
    [ATTR_NETWORK_PROTOCOL_VERSION]: req.httpVersion,
    [ROSETTA_REQUEST_ID]: id,
  };
  const client = req.socket.remoteAddress;
  if (client) attributes[ATTR_CLIENT_ADDRESS] = client;
  const agent = req.headers['user-agent'];
  if (agent) attributes[ATTR_USER_AGENT_ORIGINAL] = agent;
  return new RequestSpan(sdk, sdk.tracer.startSpan(operation, { kind: SpanKind.SERVER, attributes }, parent), captureContent, operation);
}

/** The GenAI operation a client route performs. */
function operationOf(path: string): string {
  return path === '/v1/embeddings' || path.endsWith(':embedContent') || path.endsWith(':batchEmbedContents') ? 'embeddings' : 'chat';
}

/**
 * The route template, never the path (ids and models in a path would make a series each): a
 * Gemini model call's template takes the model and the method as one tail, so the method the
 * path names is put back.
 */
function routeOf(route: string, path: string): string {
  if (route !== '/v1beta/models/{path}') return route;
  const method = /:(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents)$/i.exec(path)?.[1];
  return method ? `/v1beta/models/{model}:${method}` : '/v1beta/models/{model}';
}

function describeOutcome(span: Span, outcome: RequestOutcome, operation: string): void {
  if (outcome.requestedModel) {
    span.updateName(`${operation} ${outcome.requestedModel}`);
    span.setAttribute(GEN_AI_REQUEST_MODEL, outcome.requestedModel);
  }
  if (outcome.servedModel) span.setAttribute(GEN_AI_RESPONSE_MODEL, outcome.servedModel);
  if (outcome.provider) {
    span.setAttribute(GEN_AI_PROVIDER_NAME, genAiProviderName(outcome.provider));
    span.setAttribute(ROSETTA_PROVIDER, outcome.provider);
  }
  if (outcome.dialect) span.setAttribute(ROSETTA_DIALECT, outcome.dialect);
  if (outcome.route) span.setAttribute(ROSETTA_ROUTE, outcome.route);
  span.setAttribute(ROSETTA_ATTEMPTS, outcome.attempts);
  span.setAttribute(GEN_AI_REQUEST_STREAM, outcome.streamed);
  if (outcome.streamed && outcome.ttftMs !== undefined) span.setAttribute(GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK, outcome.ttftMs / 1000);
  setUsage(span, outcome.usage);
}

function serverOf(baseUrl: string): { address: string; port: number } | undefined {
  try {
    const url = new URL(baseUrl);
    return { address: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
  } catch {
    return undefined;
  }
}
