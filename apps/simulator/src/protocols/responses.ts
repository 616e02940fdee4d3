import { faultBeforeHeaders, GARBAGE_TEXT, sendJsonWithFault, streamFaultsOf } from '../fault-injection';
import { pause, sendJson } from '../http-io';
import { playStream } from '../sse-stream';
import { OpenAiRequestError } from './openai-request';
import { renderPlannedError } from './openai-response';
import type { ProtocolModule, SimExchange } from './protocol-module';
import { convertResponsesRequest, type ResponsesRequest } from './responses-request';
import { newResponsesContext, outputItems, renderResponse, renderResponsesFrames, responsesGarbage, responsesStreamError } from './responses-response';

const PATHS = new Set(['/v1/responses', '/responses']);

/** OpenAI's Responses API: `POST /v1/responses`, stateless (`store` is ignored, nothing is kept). */
async function handleResponses(exchange: SimExchange): Promise<void> {
  const { res, settings, signal } = exchange;
  if (!/^Bearer\s+\S+/i.test(exchange.headers['authorization'] ?? '')) {
    if (await pause(settings.latencyMs, signal)) sendJson(res, 401, { error: { message: "You didn't provide an API key.", type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    return;
  }
  const read = readRequest(exchange);
  if (!read.ok) {
    if (await pause(settings.latencyMs, signal)) sendJson(res, 400, { error: read.error });
    return;
  }
  const request = read.value;
  const plan = exchange.plan(request.neutral, request.cache);
  if (!(await pause(plan.latencyMs ?? settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  if (plan.error) {
    const rendered = renderPlannedError(plan.error);
    return sendJson(res, rendered.status, rendered.body, rendered.headers);
  }
  const ctx = newResponsesContext(request.neutral.model, request, request.includeEncrypted);
  if (request.neutral.stream) {
    await playStream(res, signal, {
      frames: renderResponsesFrames(plan, ctx, settings.chunkTokens),
      errorFrame: responsesStreamError('The simulator was scripted to fail this stream.'),
      garbageFrame: responsesGarbage(GARBAGE_TEXT),
      faults: streamFaultsOf(plan),
      tokensPerSecond: plan.tokensPerSecond ?? settings.tokensPerSecond,
    });
    return;
  }
  if (plan.dropConnectionAfterChunks !== undefined) {
    res.socket?.destroy();
    return;
  }
  if (plan.streamErrorAfterChunks !== undefined) {
    return sendJson(res, 500, { error: { message: 'The simulator was scripted to fail this response.', type: 'server_error', param: null, code: null } });
  }
  return sendJsonWithFault(res, signal, plan.fault, 200, renderResponse(plan, ctx, outputItems(plan, ctx)));
}

function readRequest(exchange: SimExchange): { ok: true; value: ResponsesRequest } | { ok: false; error: Record<string, unknown> } {
  if (!exchange.body.ok) return { ok: false, error: { message: `We could not parse the JSON body of your request. ${exchange.body.error}`, type: 'invalid_request_error', param: null, code: null } };
  try {
    return { ok: true, value: convertResponsesRequest(exchange.body.value) };
  } catch (error: unknown) {
    if (!(error instanceof OpenAiRequestError)) throw error;
    return { ok: false, error: { message: error.message, type: 'invalid_request_error', param: error.param, code: error.code } };
  }
}

export const responsesProtocol: ProtocolModule = {
  protocol: 'openai-responses',
  handles: (method, pathname) => method === 'POST' && PATHS.has(pathname),
  handle: handleResponses,
};
