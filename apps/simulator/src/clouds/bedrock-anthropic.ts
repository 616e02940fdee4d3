import { faultBeforeHeaders, sendJsonWithFault } from '../fault-injection';
import { isRecord, pause } from '../http-io';
import { firstStep } from '../protocols/anthropic';
import { anthropicStreamEvents, identifyToolUses, newAnthropicContext, renderMessage, type AnthropicStreamEvent } from '../protocols/anthropic-response';
import type { ProtocolModule, SimExchange } from '../protocols/protocol-module';
import { withoutUndefined } from '../reply-limits';
import type { ReplyPlan } from '../reply-plan';
import type { StreamFrame } from '../sse-stream';
import { eventFrame } from './aws-event-stream-frames';
import { plannedBedrockError, sendBedrockError, upfrontError, type BedrockError } from './bedrock-errors';
import { bedrockRoute, checkBedrockCredentials, type BedrockRoute } from './bedrock-route';
import { playBedrockStream } from './bedrock-stream';
import { rewriteExchange } from './cloud-exchange';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** The beta flags Claude on Bedrock accepts; any other fails the request, as on Bedrock. */
const BEDROCK_BETAS = new Set([
  'claude-code-20250219', 'computer-use-2024-10-22', 'computer-use-2025-01-24', 'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14', 'output-128k-2025-02-19', 'dev-full-thinking-2025-05-14', 'context-1m-2025-08-07',
  'context-management-2025-06-27', 'effort-2025-11-24', 'tool-search-tool-2025-10-19', 'tool-examples-2025-10-29',
]);

type Rewrite = { ok: true; body: Record<string, unknown>; betas: string[] } | { ok: false; error: BedrockError };

const validation = (message: string): Rewrite => ({ ok: false, error: { status: 400, type: 'ValidationException', message } });

/**
 * Claude's Messages body as Bedrock's invoke takes it: no `model` (the URL names it), no `stream`
 * (the operation says it), `anthropic_version: bedrock-2023-05-31`, beta flags in `anthropic_beta`.
 */
function toAnthropicBody(exchange: SimExchange, route: BedrockRoute): Rewrite {
  if (!/(^|\.)anthropic\.claude/.test(route.model)) return validation(`The simulator's invoke surface serves Claude (anthropic.*) models; ${route.model} takes Converse.`);
  if (!exchange.body.ok) return validation(`Malformed input request: ${exchange.body.error}, please reformat your input and try again.`);
  const body = exchange.body.value;
  if (!isRecord(body)) return validation('Malformed input request: the body must be a JSON object, please reformat your input and try again.');
  for (const key of ['model', 'stream']) if (key in body) return validation(`Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`);
  const version = body['anthropic_version'];
  if (version !== BEDROCK_ANTHROPIC_VERSION) return validation(`Malformed input request: #/anthropic_version: ${version === undefined ? 'required key [anthropic_version] not found' : `${JSON.stringify(version)} is not a valid enum value`}, please reformat your input and try again.`);
  const { anthropic_version: _version, anthropic_beta: beta, ...rest } = body;
  const betas = Array.isArray(beta) ? beta.filter((flag): flag is string => typeof flag === 'string') : [];
  if (betas.some((flag) => !BEDROCK_BETAS.has(flag))) return validation('The model returned the following errors: invalid beta flag');
  return { ok: true, body: { ...rest, model: route.model, stream: route.operation === 'invoke-with-response-stream' }, betas };
}

/** An Anthropic-format refusal (from the shared Messages checks) in Bedrock's terms. */
function fromAnthropic(status: number, body: unknown): BedrockError {
  const error = isRecord(body) && isRecord(body['error']) ? body['error'] : {};
  const message = typeof error['message'] === 'string' ? error['message'] : 'invalid request';
  return { status, type: status === 400 ? 'ValidationException' : status === 404 ? 'ResourceNotFoundException' : 'InternalServerException', message };
}

/** Claude on Bedrock: invoke and invoke-with-response-stream, Anthropic's body and events in Bedrock's envelope. */
async function handleInvoke(exchange: SimExchange): Promise<void> {
  const { res, settings, signal, requestId } = exchange;
  res.setHeader('x-amzn-requestid', requestId);
  const route = bedrockRoute(exchange.url.pathname)!;
  const refusal = checkBedrockCredentials(exchange, route);
  const rewrite: Rewrite = refusal ? { ok: false, error: refusal } : toAnthropicBody(exchange, route);
  if (!rewrite.ok) {
    if (await pause(settings.latencyMs, signal)) sendBedrockError(res, requestId, rewrite.error);
    return;
  }
  const headers = { 'x-api-key': 'bedrock-sigv4', 'anthropic-version': '2023-06-01', ...(rewrite.betas.length > 0 ? { 'anthropic-beta': rewrite.betas.join(',') } : {}) };
  const step = firstStep(rewriteExchange(exchange, { path: '/v1/messages', headers, body: rewrite.body }));
  if (step.kind === 'respond') {
    if (await pause(settings.latencyMs, signal)) sendBedrockError(res, requestId, fromAnthropic(step.status, step.body));
    return;
  }
  const plan = exchange.plan(step.request.neutral, step.cache);
  if (!(await pause(plan.latencyMs ?? settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  const error = upfrontError(plan, step.request.neutral.stream);
  if (error) return sendBedrockError(res, requestId, plannedBedrockError(error));
  const ctx = newAnthropicContext(route.model);
  const calls = identifyToolUses(plan.toolCalls);
  if (step.request.neutral.stream) return streamInvoke(exchange, plan, anthropicStreamEvents(plan, ctx, calls, settings.chunkTokens));
  if (plan.dropConnectionAfterChunks !== undefined) {
    res.socket?.destroy();
    return;
  }
  if (plan.streamErrorAfterChunks !== undefined) return sendBedrockError(res, requestId, { status: 500, type: 'InternalServerException', message: 'The simulator was scripted to fail this response.' });
  const counts = invocationCounts(plan);
  res.setHeader('x-amzn-bedrock-input-token-count', String(counts.inputTokenCount));
  res.setHeader('x-amzn-bedrock-output-token-count', String(counts.outputTokenCount));
  if (counts.cacheReadInputTokenCount !== undefined) res.setHeader('x-amzn-bedrock-cache-read-input-token-count', String(counts.cacheReadInputTokenCount));
  if (counts.cacheWriteInputTokenCount !== undefined) res.setHeader('x-amzn-bedrock-cache-write-input-token-count', String(counts.cacheWriteInputTokenCount));
  return sendJsonWithFault(res, signal, plan.fault, 200, renderMessage(plan, ctx, calls));
}

/**
 * Bedrock's token counts for an invocation: the input as Claude's `input_tokens` counts it
 * (without cache reads and writes), with the cache counts beside it when the cache was used.
 */
function invocationCounts(plan: ReplyPlan): Record<string, number | undefined> {
  const written = (plan.cacheWrite?.fiveMinute ?? 0) + (plan.cacheWrite?.oneHour ?? 0);
  const cacheUsed = plan.usage.cached > 0 || written > 0;
  return {
    inputTokenCount: Math.max(0, plan.usage.input - plan.usage.cached - written),
    outputTokenCount: plan.usage.output,
    cacheReadInputTokenCount: cacheUsed ? plan.usage.cached : undefined,
    cacheWriteInputTokenCount: cacheUsed ? written : undefined,
  };
}

/** Each Anthropic event becomes a `chunk` frame carrying its JSON as base64 `bytes`; message_stop gains Bedrock's invocation metrics. */
function chunkFrames(events: readonly AnthropicStreamEvent[], plan: ReplyPlan): StreamFrame[] {
  return events.map(({ data, tokens, phase }) => {
    const metrics = withoutUndefined({ ...invocationCounts(plan), invocationLatency: 42, firstByteLatency: 21 });
    const event = data['type'] === 'message_stop' ? { ...data, 'amazon-bedrock-invocationMetrics': metrics } : data;
    return { data: eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64') }), tokens, phase };
  });
}

function streamInvoke(exchange: SimExchange, plan: ReplyPlan, events: AnthropicStreamEvent[]): Promise<void> {
  return playBedrockStream(exchange, plan, chunkFrames(events, plan), 'invoke-with-response-stream', 'chunk');
}

export const bedrockAnthropicProtocol: ProtocolModule = {
  protocol: 'bedrock-anthropic',
  handles: (_method, pathname) => bedrockRoute(pathname)?.operation.startsWith('invoke') ?? false,
  handle: handleInvoke,
};
