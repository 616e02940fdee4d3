import { addUsage, GatewayError, type EmbeddingRequest, type EmbeddingResponse, type TranslationWarning } from '@rosetta/canonical';
import type { UpstreamEmbeddings } from '@rosetta/protocols/common';
import type { HttpTransport } from './http-transport';
import type { AdapterEmbedding, UpstreamEmbeddingCall } from './provider-adapter';
import { postToUpstream, readJson, requireHonoured } from './upstream-call';
import { platformRequest } from './credentials/platform-request';

/** Upstream calls one embeddings request may have in flight at once when it is split. */
const PARALLEL_CALLS = 4;

/**
 * An embeddings request to one endpoint: split into calls of at most the protocol's `maxInputs`
 * (an OpenAI client's 2,048 inputs are 21 Gemini batches), a few in flight at once, over the
 * shared transport (SSRF-pinned dispatcher, time-outs, the attempt's abort signal, error parsing),
 * and joined back in order. Any call failing fails the attempt, which the executor retries or
 * falls back from as a whole.
 */
export async function embedOverProtocol(transport: HttpTransport, part: UpstreamEmbeddings, parseError: (text: string) => { message: string }, call: UpstreamEmbeddingCall): Promise<AdapterEmbedding> {
  const chunks = split(withoutNativeSize(call.request, call.target), part.maxInputs);
  const one = async (request: EmbeddingRequest): Promise<AdapterEmbedding> => {
    const { target } = call;
    const { value: body, warnings } = requireHonoured(request, part.encode(request, target.upstreamModel));
    let headers: Record<string, string> = { ...part.headers(target.apiKey), 'x-request-id': call.requestId };
    let url = part.url(target.baseUrl, target.upstreamModel, request.inputs.length);
    if (target.platform) {
      ({ url, headers } = await platformRequest({ provider: target.provider, platform: target.platform, baseUrl: target.baseUrl, upstreamModel: target.upstreamModel, path: url.slice(target.baseUrl.length), apiKey: target.apiKey, headers }));
    }
    const upstream = await postToUpstream(transport, call, url, headers, body, parseError);
    return { response: part.decode(await readJson(upstream), request.inputs.length), warnings };
  };
  return join(await inParallel(chunks, PARALLEL_CALLS, one));
}

/**
 * A request for the endpoint's own vector size, to an upstream that takes no `dimensions` (the
 * router admitted it because the size is what it gives anyway): sent without it, as such upstreams
 * refuse the field (the client's own body, which names it, is converted rather than forwarded).
 */
function withoutNativeSize(request: EmbeddingRequest, target: UpstreamEmbeddingCall['target']): EmbeddingRequest {
  if (request.dimensions === undefined || target.customDimensions || request.dimensions !== target.dimensions) return request;
  return { ...request, dimensions: undefined, passthrough: undefined };
}

function split(request: EmbeddingRequest, size: number): EmbeddingRequest[] {
  if (request.inputs.length <= size) return [request];
  const chunks: EmbeddingRequest[] = [];
  // The client's own body describes all of its inputs, so a part of them goes as converted.
  for (let i = 0; i < request.inputs.length; i += size) chunks.push({ ...request, inputs: request.inputs.slice(i, i + size), passthrough: undefined });
  return chunks;
}

async function inParallel<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The parts' vectors in order; usage only when every part reported it; each warning once. */
function join(parts: AdapterEmbedding[]): AdapterEmbedding {
  if (parts.length === 1) return parts[0]!;
  if (parts.length === 0) throw new GatewayError('api_error', 'an embeddings request without inputs', { local: true });
  const reported = parts.every((p) => p.response.usage !== undefined);
  const response: EmbeddingResponse = { model: parts[0]!.response.model, embeddings: parts.flatMap((p) => p.response.embeddings) };
  if (reported) response.usage = parts.reduce<EmbeddingResponse['usage']>((sum, p) => addUsage(sum, p.response.usage!), undefined);
  const warnings = new Map<string, TranslationWarning>();
  for (const part of parts) for (const warning of part.warnings) warnings.set(warning.feature, warning);
  return { response, warnings: [...warnings.values()] };
}
