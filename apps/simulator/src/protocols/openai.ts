import { faultBeforeHeaders, GARBAGE_TEXT, sendJsonWithFault, streamFaultsOf } from '../fault-injection';
import { pause, sendJson } from '../http-io';
import type { ReplyPlan } from '../reply-plan';
import { playStream } from '../sse-stream';
import { convertOpenAiRequest, OpenAiRequestError, type OpenAiRequest } from './openai-request';
import {
  garbageEvent,
  identifyToolCalls,
  inStreamError,
  newContext,
  renderCompletion,
  renderPlannedError,
  renderStreamFrames,
  type OpenAiError,
} from './openai-response';
import { validateOpenAiConversation } from './openai-validation';
import type { ProtocolModule, SimExchange } from './protocol-module';

const COMPLETION_PATHS = new Set(['/v1/chat/completions', '/chat/completions']);
const MODEL_PATHS = new Set(['/v1/models', '/models']);

/** Listed by GET /v1/models; any other model name is accepted too. */
export const SIMULATED_MODELS: readonly string[] = ['sim-small', 'sim-large', 'sim-reasoner', 'llama-guard-3-8b', 'sim-guard'];
/** A fixed date keeps the model list deterministic. */
const MODELS_CREATED = 1_735_689_600;

function hasBearerToken(authorization: string | undefined): boolean {
  return authorization !== undefined && /^Bearer\s+\S+/i.test(authorization);
}

const NO_API_KEY =
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";

/** Either an immediate answer (rejections, the model list) or a request to plan a reply for. */
type Step = { kind: 'respond'; status: number; body: unknown } | { kind: 'reply'; request: OpenAiRequest };

function errorStep(status: number, error: OpenAiError): Step {
  return { kind: 'respond', status, body: { error } };
}

function firstStep(exchange: SimExchange): Step {
  const { method, url } = exchange;
  const expected = COMPLETION_PATHS.has(url.pathname) ? 'POST' : 'GET';
  if (method !== expected) {
    const message = `Invalid method for URL (${method} ${url.pathname}).`;
    return errorStep(405, { message, type: 'invalid_request_error', param: null, code: null });
  }
  if (!exchange.settings.keyless && !hasBearerToken(exchange.headers['authorization'])) {
    return errorStep(401, { message: NO_API_KEY, type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
  }
  if (MODEL_PATHS.has(url.pathname)) {
    const data = SIMULATED_MODELS.map((id) => ({ id, object: 'model', created: MODELS_CREATED, owned_by: 'simulator' }));
    return { kind: 'respond', status: 200, body: { object: 'list', data } };
  }
  const request = readRequest(exchange);
  return request.ok ? { kind: 'reply', request: request.value } : errorStep(400, request.error);
}

async function handleOpenAi(exchange: SimExchange): Promise<void> {
  const { res, settings, signal } = exchange;
  const step = firstStep(exchange);
  if (step.kind === 'respond') {
    if (await pause(settings.latencyMs, signal)) sendJson(res, step.status, step.body);
    return;
  }
  const plan = exchange.plan(step.request.neutral, step.request.cache);
  if (!(await pause(plan.latencyMs ?? settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  if (plan.error) {
    const rendered = renderPlannedError(plan.error);
    return sendJson(res, rendered.status, rendered.body, rendered.headers);
  }
  if (step.request.neutral.stream) return streamReply(exchange, plan, step.request);
  return completeReply(exchange, plan, step.request);
}

function readRequest(exchange: SimExchange): { ok: true; value: OpenAiRequest } | { ok: false; error: OpenAiError } {
  if (!exchange.body.ok) {
    const message = `We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.) ${exchange.body.error}`;
    return { ok: false, error: { message, type: 'invalid_request_error', param: null, code: null } };
  }
  try {
    const value = convertOpenAiRequest(exchange.body.value);
    const body = exchange.body.value as Record<string, unknown>;
    const violation = validateOpenAiConversation(body['messages'] as unknown[]);
    if (violation) throw violation;
    return { ok: true, value };
  } catch (error: unknown) {
    if (!(error instanceof OpenAiRequestError)) throw error;
    return { ok: false, error: { message: error.message, type: 'invalid_request_error', param: error.param, code: error.code } };
  }
}

/** A non-streamed reply cannot fail half-way, so stream faults become whole-response faults. */
async function completeReply(exchange: SimExchange, plan: ReplyPlan, request: OpenAiRequest): Promise<void> {
  if (plan.dropConnectionAfterChunks !== undefined) {
    exchange.res.socket?.destroy();
    return;
  }
  if (plan.streamErrorAfterChunks !== undefined) {
    const message = 'The simulator was scripted to fail this response.';
    return sendJson(exchange.res, 500, { error: { message, type: 'server_error', param: null, code: null } });
  }
  const ctx = newContext(request.neutral.model);
  const body = renderCompletion(plan, ctx, identifyToolCalls(plan.toolCalls));
  return sendJsonWithFault(exchange.res, exchange.signal, plan.fault, 200, body);
}

async function streamReply(exchange: SimExchange, plan: ReplyPlan, request: OpenAiRequest): Promise<void> {
  const ctx = newContext(request.neutral.model);
  const frames = renderStreamFrames(plan, ctx, identifyToolCalls(plan.toolCalls), {
    chunkTokens: exchange.settings.chunkTokens,
    includeUsage: request.includeUsage,
  });
  await playStream(exchange.res, exchange.signal, {
    frames,
    errorFrame: inStreamError('The simulator was scripted to fail this stream.'),
    garbageFrame: garbageEvent(GARBAGE_TEXT),
    faults: streamFaultsOf(plan),
    tokensPerSecond: plan.tokensPerSecond ?? exchange.settings.tokensPerSecond,
  });
}

export const openAiProtocol: ProtocolModule = {
  protocol: 'openai',
  handles: (_method, pathname) => COMPLETION_PATHS.has(pathname) || MODEL_PATHS.has(pathname),
  handle: handleOpenAi,
};
