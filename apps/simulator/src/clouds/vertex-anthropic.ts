import { isRecord, pause, sendJson } from '../http-io';
import { anthropicError } from '../protocols/anthropic-response';
import { anthropicProtocol } from '../protocols/anthropic';
import type { ProtocolModule, SimExchange } from '../protocols/protocol-module';
import { rewriteExchange } from './cloud-exchange';
import { checkVertexCredentials, vertexRoute, type VertexRoute } from './vertex-route';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const COUNT_TOKENS_MODEL = 'count-tokens';

type Rewrite = { ok: true; path: string; body: Record<string, unknown> } | { ok: false; status: number; message: string };

/**
 * Vertex carries the model in the path and the API version in the body; the Anthropic module
 * expects both the other way round. A body that still names a model is refused, as a Claude
 * request shaped for the public API would be.
 */
function toAnthropicRequest(exchange: SimExchange, route: VertexRoute): Rewrite {
  const fail = (status: number, message: string): Rewrite => ({ ok: false, status, message });
  if (route.method !== 'rawPredict' && route.method !== 'streamRawPredict') {
    return fail(400, `Method ${route.method} is not supported for publishers/anthropic/models/${route.model}; use rawPredict or streamRawPredict.`);
  }
  if (!exchange.body.ok) return fail(400, `There was an issue with your request body: invalid JSON (${exchange.body.error})`);
  const body = exchange.body.value;
  if (!isRecord(body)) return fail(400, 'The request body must be a JSON object.');
  const version = body['anthropic_version'];
  if (version === undefined) return fail(400, 'anthropic_version: Field required');
  if (version !== VERTEX_ANTHROPIC_VERSION) return fail(400, `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`);
  const { anthropic_version: _version, ...rest } = body;
  if (route.model === COUNT_TOKENS_MODEL) return { ok: true, path: '/v1/messages/count_tokens', body: rest };
  if ('model' in rest) return fail(400, 'model: Extra inputs are not permitted (on Vertex AI the model is named in the URL)');
  return { ok: true, path: '/v1/messages', body: { ...rest, model: route.model, stream: route.method === 'streamRawPredict' } };
}

/** Claude on Vertex AI: rawPredict / streamRawPredict, answered in Anthropic's own wire format. */
async function handleVertexAnthropic(exchange: SimExchange): Promise<void> {
  const route = vertexRoute(exchange.url.pathname);
  const refusal = checkVertexCredentials(exchange);
  if (!route || refusal) {
    const status = refusal?.status ?? 404;
    if (await pause(exchange.settings.latencyMs, exchange.signal)) sendJson(exchange.res, status, refusal?.body ?? {});
    return;
  }
  const rewrite = toAnthropicRequest(exchange, route);
  if (!rewrite.ok) {
    const type = rewrite.status === 400 ? 'invalid_request_error' : 'not_found_error';
    return sendJson(exchange.res, rewrite.status, anthropicError(type, rewrite.message, exchange.requestId));
  }
  // The checked bearer token stands in for the API key; Vertex needs no anthropic-version header.
  const headers = { 'x-api-key': 'vertex-oauth2', 'anthropic-version': exchange.headers['anthropic-version'] ?? '2023-06-01' };
  // Vertex keeps prompt caches per project, not per access token (which is renewed hourly).
  const cacheScope = `vertex-project:${route.project}`;
  return anthropicProtocol.handle(rewriteExchange(exchange, { path: rewrite.path, headers, body: rewrite.body, cacheScope }));
}

export const vertexAnthropicProtocol: ProtocolModule = {
  protocol: 'vertex-anthropic',
  handles: (_method, pathname) => vertexRoute(pathname)?.publisher === 'anthropic',
  handle: handleVertexAnthropic,
};
