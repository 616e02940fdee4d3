import { faultBeforeHeaders, GARBAGE_TEXT, sendJsonWithFault, streamFaultsOf } from '../fault-injection';
import { pause, sendJson } from '../http-io';
import { convertOpenAiRequest, OpenAiRequestError, type OpenAiRequest } from '../protocols/openai-request';
import {
  garbageEvent,
  identifyToolCalls,
  inStreamError,
  newContext,
  renderCompletion,
  renderPlannedError,
  renderStreamFrames,
} from '../protocols/openai-response';
import { validateOpenAiConversation } from '../protocols/openai-validation';
import type { SimExchange } from '../protocols/protocol-module';
import type { ReplyPlan } from '../reply-plan';
import { playStream } from '../sse-stream';
import { azureCompletion, azurePlannedError, azureStreamFrames } from './azure-content-filter';

function readRequest(exchange: SimExchange): OpenAiRequest | { status: number; body: unknown } {
  const invalid = (message: string, param: string | null, code: string | null) => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param, code } },
  });
  if (!exchange.body.ok) return invalid(`We could not parse the JSON body of your request. ${exchange.body.error}`, null, null);
  try {
    const request = convertOpenAiRequest(exchange.body.value);
    const violation = validateOpenAiConversation((exchange.body.value as Record<string, unknown>)['messages'] as unknown[]);
    if (violation) throw violation;
    return request;
  } catch (error: unknown) {
    if (!(error instanceof OpenAiRequestError)) throw error;
    return invalid(error.message, error.param, error.code);
  }
}

/**
 * Chat completions as Azure OpenAI answers them: OpenAI's wire format with content-filter
 * verdicts, a first stream chunk without choices, and Azure's content_filter and 429 errors.
 * The caller has checked credentials and put the deployment into the body's `model`.
 */
export async function handleAzureChat(exchange: SimExchange): Promise<void> {
  const { res, settings, signal } = exchange;
  const request = readRequest(exchange);
  if (!('neutral' in request)) {
    if (await pause(settings.latencyMs, signal)) sendJson(res, request.status, request.body);
    return;
  }
  const plan = exchange.plan(request.neutral, request.cache);
  if (!(await pause(plan.latencyMs ?? settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  if (plan.error) {
    const rendered = azurePlannedError(plan.error) ?? renderPlannedError(plan.error);
    return sendJson(res, rendered.status, rendered.body, rendered.headers);
  }
  if (request.neutral.stream) return streamReply(exchange, plan, request);
  return completeReply(exchange, plan, request);
}

async function completeReply(exchange: SimExchange, plan: ReplyPlan, request: OpenAiRequest): Promise<void> {
  if (plan.dropConnectionAfterChunks !== undefined) {
    exchange.res.socket?.destroy();
    return;
  }
  if (plan.streamErrorAfterChunks !== undefined) {
    const message = 'The simulator was scripted to fail this response.';
    return sendJson(exchange.res, 500, { error: { code: 'InternalServerError', message } });
  }
  const body = renderCompletion(plan, newContext(request.neutral.model), identifyToolCalls(plan.toolCalls));
  return sendJsonWithFault(exchange.res, exchange.signal, plan.fault, 200, azureCompletion(body));
}

async function streamReply(exchange: SimExchange, plan: ReplyPlan, request: OpenAiRequest): Promise<void> {
  const frames = renderStreamFrames(plan, newContext(request.neutral.model), identifyToolCalls(plan.toolCalls), {
    chunkTokens: exchange.settings.chunkTokens,
    includeUsage: request.includeUsage,
  });
  await playStream(exchange.res, exchange.signal, {
    frames: azureStreamFrames(frames),
    errorFrame: inStreamError('The simulator was scripted to fail this stream.'),
    garbageFrame: garbageEvent(GARBAGE_TEXT),
    faults: streamFaultsOf(plan),
    tokensPerSecond: plan.tokensPerSecond ?? exchange.settings.tokensPerSecond,
  });
}
