import { faultBeforeHeaders, GARBAGE_TEXT, sendJsonWithFault, streamFaultsOf } from '../fault-injection';
import { isRecord, pause, sendJson } from '../http-io';
import { countInputTokens } from '../reply-limits';
import type { ReplyPlan } from '../reply-plan';
import { playStream } from '../sse-stream';
import { convertGeminiRequest, GeminiRequestError, type GeminiRequest } from './gemini-request';
import {
  geminiArrayError,
  geminiArrayGarbage,
  geminiError,
  geminiSseError,
  geminiSseGarbage,
  newGeminiContext,
  renderGeminiJsonArray,
  renderGeminiPlannedError,
  renderGeminiSse,
  renderGenerateContent,
} from './gemini-response';
import { validateGeminiRequest } from './gemini-validation';
import type { ProtocolModule, SimExchange } from './protocol-module';

/** `{model}` may itself contain slashes; the method follows the last colon. */
const MODEL_PATH = /^\/(?:v1beta|v1)\/models\/(.+):(generateContent|streamGenerateContent|countTokens)$/;

type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens';

interface Route {
  model: string;
  method: GeminiMethod;
}

function route(pathname: string): Route | undefined {
  const match = MODEL_PATH.exec(pathname);
  if (!match?.[1] || !match[2]) return undefined;
  let model = match[1];
  try {
    model = decodeURIComponent(model);
  } catch {
    // Keep the raw segment; a bad escape is the client's problem, not a reason to 500.
  }
  return { model, method: match[2] as GeminiMethod };
}

const NO_API_KEY =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";

type Step = { kind: 'respond'; status: number; body: unknown } | { kind: 'reply'; request: GeminiRequest; model: string };

function hasApiKey(exchange: SimExchange): boolean {
  const header = exchange.headers['x-goog-api-key'];
  const query = exchange.url.searchParams.get('key');
  return (header !== undefined && header.trim() !== '') || (query !== null && query.trim() !== '');
}

function firstStep(exchange: SimExchange, target: Route): Step {
  const reject = (code: number, message: string, status?: string): Step => ({ kind: 'respond', status: code, body: geminiError(code, message, status) });
  if (exchange.method !== 'POST') return reject(405, `Method ${exchange.method} is not allowed; use POST.`, 'INVALID_ARGUMENT');
  if (!hasApiKey(exchange)) return reject(403, NO_API_KEY);
  if (!exchange.body.ok) return reject(400, `Invalid JSON payload received. ${exchange.body.error}`);
  let body = exchange.body.value;
  if (target.method === 'countTokens' && isRecord(body) && isRecord(body['generateContentRequest'] ?? body['generate_content_request'])) {
    body = body['generateContentRequest'] ?? body['generate_content_request'];
  }
  let request: GeminiRequest;
  try {
    request = convertGeminiRequest(body, target.model, target.method === 'streamGenerateContent');
  } catch (error: unknown) {
    if (!(error instanceof GeminiRequestError)) throw error;
    return reject(400, error.message);
  }
  const violation = validateGeminiRequest(request, target.model);
  if (violation) return reject(400, violation);
  if (target.method === 'countTokens') return { kind: 'respond', status: 200, body: { totalTokens: countInputTokens(request.neutral.messages) } };
  return { kind: 'reply', request, model: target.model };
}

async function handleGemini(exchange: SimExchange): Promise<void> {
  const { res, settings, signal } = exchange;
  const target = route(exchange.url.pathname);
  if (!target) return sendJson(res, 404, geminiError(404, `Unknown request URL: ${exchange.url.pathname}.`));
  const step = firstStep(exchange, target);
  if (step.kind === 'respond') {
    if (await pause(settings.latencyMs, signal)) sendJson(res, step.status, step.body);
    return;
  }
  const plan = exchange.plan(step.request.neutral);
  if (!(await pause(plan.latencyMs ?? settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  if (plan.error) {
    const rendered = renderGeminiPlannedError(plan.error);
    return sendJson(res, rendered.status, rendered.body, rendered.headers);
  }
  if (step.request.neutral.stream) return streamReply(exchange, plan, step.request);
  return completeReply(exchange, plan, step.request);
}

/** A non-streamed reply cannot fail half-way, so stream faults become whole-response faults. */
async function completeReply(exchange: SimExchange, plan: ReplyPlan, request: GeminiRequest): Promise<void> {
  if (plan.dropConnectionAfterChunks !== undefined) {
    exchange.res.socket?.destroy();
    return;
  }
  if (plan.streamErrorAfterChunks !== undefined) {
    return sendJson(exchange.res, 500, geminiError(500, 'The simulator was scripted to fail this response.'));
  }
  const ctx = newGeminiContext(request.neutral.model, request.includeThoughts);
  return sendJsonWithFault(exchange.res, exchange.signal, plan.fault, 200, renderGenerateContent(plan, ctx));
}

/** `?alt=sse` streams SSE events; without it the body is one JSON array written incrementally. */
async function streamReply(exchange: SimExchange, plan: ReplyPlan, request: GeminiRequest): Promise<void> {
  const ctx = newGeminiContext(request.neutral.model, request.includeThoughts);
  const sse = exchange.url.searchParams.get('alt') === 'sse';
  const { chunkTokens } = exchange.settings;
  await playStream(exchange.res, exchange.signal, {
    frames: sse ? renderGeminiSse(plan, ctx, chunkTokens) : renderGeminiJsonArray(plan, ctx, chunkTokens),
    errorFrame: sse ? geminiSseError() : geminiArrayError,
    garbageFrame: sse ? geminiSseGarbage(GARBAGE_TEXT) : geminiArrayGarbage(GARBAGE_TEXT),
    faults: streamFaultsOf(plan),
    tokensPerSecond: plan.tokensPerSecond ?? exchange.settings.tokensPerSecond,
    headers: sse ? {} : { 'content-type': 'application/json; charset=UTF-8' },
  });
}

export const geminiProtocol: ProtocolModule = {
  protocol: 'gemini',
  handles: (_method, pathname) => MODEL_PATH.test(pathname),
  handle: handleGemini,
};
