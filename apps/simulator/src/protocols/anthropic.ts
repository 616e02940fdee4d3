import { faultBeforeHeaders, GARBAGE_TEXT, sendJsonWithFault, streamFaultsOf } from '../fault-injection';
import { pause, sendJson } from '../http-io';
import { countInputTokens } from '../reply-limits';
import type { PromptCacheQuery } from '../prompt-cache/prompt-cache-types';
import type { ReplyPlan } from '../reply-plan';
import { playStream } from '../sse-stream';
import { readAnthropicCachePoints } from './anthropic-cache-points';
import { AnthropicRequestError, convertAnthropicRequest, type AnthropicRequest } from './anthropic-request';
import {
  anthropicError,
  anthropicGarbageEvent,
  anthropicStreamError,
  identifyToolUses,
  newAnthropicContext,
  renderAnthropicPlannedError,
  renderAnthropicStream,
  renderMessage,
} from './anthropic-response';
import { validateAnthropicRequest } from './anthropic-validation';
import type { ProtocolModule, SimExchange } from './protocol-module';

const MESSAGES_PATH = '/v1/messages';
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/**
 * What to do with a Messages request: answer it at once (an error, a token count), or reply from
 * a plan that goes through the prompt cache its breakpoints describe.
 */
export type AnthropicStep = { kind: 'respond'; status: number; body: unknown } | { kind: 'reply'; request: AnthropicRequest; cache: PromptCacheQuery };
type Step = AnthropicStep;

function hasCredentials(headers: Record<string, string>): boolean {
  const key = headers['x-api-key'];
  if (key !== undefined && key.trim() !== '') return true;
  const authorization = headers['authorization'];
  return authorization !== undefined && /^Bearer\s+\S+/i.test(authorization);
}

/** Checks and reads a Messages request as Anthropic does; cloud surfaces that carry Claude's body reuse it. */
export function firstStep(exchange: SimExchange): Step {
  const { method, url, headers, requestId } = exchange;
  const reject = (status: number, type: string, message: string): Step => ({
    kind: 'respond',
    status,
    body: anthropicError(type, message, requestId),
  });
  if (method !== 'POST') return reject(405, 'invalid_request_error', `Method ${method} is not allowed for ${url.pathname}; use POST.`);
  if (!hasCredentials(headers)) return reject(401, 'authentication_error', 'x-api-key header is required');
  if (!headers['anthropic-version']) return reject(400, 'invalid_request_error', 'anthropic-version: header is required');
  if (!exchange.body.ok) return reject(400, 'invalid_request_error', `There was an issue with your request body: invalid JSON (${exchange.body.error})`);
  const counting = url.pathname === COUNT_TOKENS_PATH;
  let request: AnthropicRequest;
  try {
    request = convertAnthropicRequest(exchange.body.value, { requireMaxTokens: !counting });
  } catch (error: unknown) {
    if (!(error instanceof AnthropicRequestError)) throw error;
    return reject(400, 'invalid_request_error', error.message);
  }
  const violation = validateAnthropicRequest(request, headers['anthropic-beta'] ?? '');
  if (violation) return reject(400, 'invalid_request_error', violation);
  const points = readAnthropicCachePoints(exchange.body.value);
  if (!points.ok) return reject(400, 'invalid_request_error', points.message);
  if (counting) return { kind: 'respond', status: 200, body: { input_tokens: countInputTokens(request.neutral.messages) } };
  return { kind: 'reply', request, cache: { kind: 'breakpoints', segments: points.segments } };
}

async function handleAnthropic(exchange: SimExchange): Promise<void> {
  const { res, settings, signal, requestId } = exchange;
  res.setHeader('request-id', requestId);
  const step = firstStep(exchange);
  if (step.kind === 'respond') {
    if (await pause(settings.latencyMs, signal)) sendJson(res, step.status, step.body);
    return;
  }
  const plan = exchange.plan(step.request.neutral, step.cache);
  if (!(await pause(plan.latencyMs ?? settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  if (plan.error) {
    const rendered = renderAnthropicPlannedError(plan.error, requestId);
    return sendJson(res, rendered.status, rendered.body, rendered.headers);
  }
  if (step.request.neutral.stream) return streamReply(exchange, plan, step.request);
  return completeReply(exchange, plan, step.request);
}

/** A non-streamed reply cannot fail half-way, so stream faults become whole-response faults. */
async function completeReply(exchange: SimExchange, plan: ReplyPlan, request: AnthropicRequest): Promise<void> {
  if (plan.dropConnectionAfterChunks !== undefined) {
    exchange.res.socket?.destroy();
    return;
  }
  if (plan.streamErrorAfterChunks !== undefined) {
    const body = anthropicError('api_error', 'The simulator was scripted to fail this response.', exchange.requestId);
    return sendJson(exchange.res, 500, body);
  }
  const ctx = newAnthropicContext(request.neutral.model);
  const body = renderMessage(plan, ctx, identifyToolUses(plan.toolCalls));
  return sendJsonWithFault(exchange.res, exchange.signal, plan.fault, 200, body);
}

async function streamReply(exchange: SimExchange, plan: ReplyPlan, request: AnthropicRequest): Promise<void> {
  const ctx = newAnthropicContext(request.neutral.model);
  await playStream(exchange.res, exchange.signal, {
    frames: renderAnthropicStream(plan, ctx, identifyToolUses(plan.toolCalls), exchange.settings.chunkTokens),
    errorFrame: anthropicStreamError('overloaded_error', 'Overloaded'),
    garbageFrame: anthropicGarbageEvent(GARBAGE_TEXT),
    faults: streamFaultsOf(plan),
    tokensPerSecond: plan.tokensPerSecond ?? exchange.settings.tokensPerSecond,
  });
}

export const anthropicProtocol: ProtocolModule = {
  protocol: 'anthropic',
  handles: (_method, pathname) => pathname === MESSAGES_PATH || pathname === COUNT_TOKENS_PATH,
  handle: handleAnthropic,
};
