import { faultBeforeHeaders, sendJsonWithFault } from '../fault-injection';
import { pause } from '../http-io';
import type { ProtocolModule, SimExchange } from '../protocols/protocol-module';
import type { ReplyPlan } from '../reply-plan';
import { readConverseCachePoints } from './bedrock-converse-cache-points';
import { convertConverseRequest, ConverseRequestError } from './bedrock-converse-request';
import { identifyConverseToolUses, renderConverseResponse, renderConverseStream } from './bedrock-converse-response';
import { plannedBedrockError, sendBedrockError, upfrontError, type BedrockError } from './bedrock-errors';
import { bedrockRoute, checkBedrockCredentials } from './bedrock-route';
import { playBedrockStream } from './bedrock-stream';

/** What Bedrock reports as the model's latency; fixed, so answers are reproducible. */
const LATENCY_MS = 42;

function refuse(exchange: SimExchange, error: BedrockError): void {
  sendBedrockError(exchange.res, exchange.requestId, error);
}

/** Bedrock's Converse and ConverseStream: one request shape for every model, AWS event-stream framing for streams. */
async function handleConverse(exchange: SimExchange): Promise<void> {
  const { res, settings, signal, requestId } = exchange;
  res.setHeader('x-amzn-requestid', requestId);
  const route = bedrockRoute(exchange.url.pathname)!;
  const refusal = checkBedrockCredentials(exchange, route);
  if (refusal || !exchange.body.ok) {
    if (await pause(settings.latencyMs, signal)) refuse(exchange, refusal ?? { status: 400, type: 'SerializationException', message: `Could not parse the request body as JSON (${exchange.body.ok ? '' : exchange.body.error})` });
    return;
  }
  let request;
  try {
    request = convertConverseRequest(exchange.body.value, route.model, route.operation === 'converse-stream');
  } catch (error) {
    if (!(error instanceof ConverseRequestError)) throw error;
    if (await pause(settings.latencyMs, signal)) refuse(exchange, { status: 400, type: 'ValidationException', message: error.message });
    return;
  }
  const points = readConverseCachePoints(exchange.body.value);
  if (!points.ok) {
    if (await pause(settings.latencyMs, signal)) refuse(exchange, { status: 400, type: 'ValidationException', message: points.message });
    return;
  }
  const plan = exchange.plan(request, { kind: 'breakpoints', segments: points.segments });
  if (!(await pause(plan.latencyMs ?? settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  const error = upfrontError(plan, request.stream);
  if (error) return refuse(exchange, plannedBedrockError(error));
  const calls = identifyConverseToolUses(plan.toolCalls);
  if (request.stream) return streamReply(exchange, plan, calls);
  if (plan.dropConnectionAfterChunks !== undefined) {
    res.socket?.destroy();
    return;
  }
  if (plan.streamErrorAfterChunks !== undefined) return refuse(exchange, { status: 500, type: 'InternalServerException', message: 'The simulator was scripted to fail this response.' });
  return sendJsonWithFault(res, signal, plan.fault, 200, renderConverseResponse(plan, calls, LATENCY_MS));
}

function streamReply(exchange: SimExchange, plan: ReplyPlan, calls: ReturnType<typeof identifyConverseToolUses>): Promise<void> {
  return playBedrockStream(exchange, plan, renderConverseStream(plan, calls, exchange.settings.chunkTokens, LATENCY_MS), 'converse-stream', 'contentBlockDelta');
}

export const bedrockConverseProtocol: ProtocolModule = {
  protocol: 'bedrock-converse',
  handles: (_method, pathname) => bedrockRoute(pathname)?.operation.startsWith('converse') ?? false,
  handle: handleConverse,
};
