import { GatewayError } from '@rosetta/canonical';
import { upstreamProtocol } from '@rosetta/protocols/upstreams';
import type { EndpointEntryDto } from './provider-entry.dto';
import type { ModelKind } from './registry-records';

/** Whether a provider protocol can serve a model of this kind (every protocol chats; not every one embeds). */
export function protocolServes(protocol: string, kind: ModelKind): boolean {
  return kind === 'chat' || upstreamProtocol(protocol)?.embeddings !== undefined;
}

/**
 * An endpoint entry against the model it serves, before anything is written: its `kind` must be
 * the model's, an embedding model only goes to a protocol with embeddings (never Anthropic), and a
 * chat endpoint states its output limit. A refusal is a 400 naming the endpoint (an admin call) or
 * stops the start (PROVIDERS_FILE).
 */
export function checkEndpointKind(input: { provider: string; protocol: string; model: string; kind: ModelKind; existing: ModelKind | undefined; endpoint: EndpointEntryDto }): void {
  const { provider, protocol, model, kind, existing, endpoint } = input;
  const where = `Endpoint '${model}' of provider '${provider}'`;
  if (endpoint.kind !== undefined && existing !== undefined && endpoint.kind !== existing) {
    throw GatewayError.invalidRequest(`${where}: kind '${endpoint.kind}', but '${model}' is ${existing === 'embedding' ? 'an embedding' : 'a chat'} model`, 'kind');
  }
  if (!protocolServes(protocol, kind)) {
    throw GatewayError.invalidRequest(`${where}: the '${protocol}' protocol has no embeddings, so it cannot serve embedding model '${model}'`, 'protocol');
  }
  if (kind === 'chat' && endpoint.max_completion_tokens === undefined) {
    throw GatewayError.invalidRequest(`${where}: max_completion_tokens is required for a chat model (an embedding model's endpoint says kind: embedding)`, 'max_completion_tokens');
  }
}
