import { pause, sendJson } from '../http-io';
import { geminiError } from '../protocols/gemini-response';
import { geminiProtocol } from '../protocols/gemini';
import type { ProtocolModule, SimExchange } from '../protocols/protocol-module';
import { rewriteExchange } from './cloud-exchange';
import { checkVertexCredentials, vertexRoute } from './vertex-route';

const GEMINI_METHODS = new Set(['generateContent', 'streamGenerateContent', 'countTokens']);

/**
 * Gemini on Vertex AI: the Gemini wire format behind Vertex's resource path and OAuth2 bearer
 * tokens. Once the token is checked the request is answered exactly as the Gemini API would.
 */
async function handleVertexGemini(exchange: SimExchange): Promise<void> {
  const route = vertexRoute(exchange.url.pathname);
  if (!route) return sendJson(exchange.res, 404, geminiError(404, `Unknown request URL: ${exchange.url.pathname}.`));
  const refusal = checkVertexCredentials(exchange);
  if (refusal) {
    if (await pause(exchange.settings.latencyMs, exchange.signal)) sendJson(exchange.res, refusal.status, refusal.body);
    return;
  }
  if (!GEMINI_METHODS.has(route.method)) {
    const message = `Method ${route.method} is not supported for publishers/google/models/${route.model}; use generateContent or streamGenerateContent.`;
    return sendJson(exchange.res, 400, geminiError(400, message, 'INVALID_ARGUMENT'));
  }
  const path = `/v1beta/models/${encodeURIComponent(route.model)}:${route.method}`;
  // The Gemini module insists on an API key; on Vertex the checked bearer token stands in for it.
  return geminiProtocol.handle(rewriteExchange(exchange, { path, headers: { 'x-goog-api-key': 'vertex-oauth2' } }));
}

export const vertexGeminiProtocol: ProtocolModule = {
  protocol: 'vertex-gemini',
  handles: (_method, pathname) => vertexRoute(pathname)?.publisher === 'google',
  handle: handleVertexGemini,
};
