import type { CanonicalRequest, CanonicalResponse, Converted, EmbeddingRequest, EmbeddingResponse, StreamEvent, UpstreamProtocolId } from '@rosetta/canonical';
import type { StreamScanner } from './stream-pass-through';

/** What the registry knows of the endpoint being called, as the codec needs it. */
export interface UpstreamEndpoint {
  upstreamModel: string;
  /** Whether the endpoint reasons (registry `reasoning`); undefined when unknown. */
  reasoning?: boolean;
  /** The endpoint's output limit. */
  maxCompletionTokens?: number;
}

/**
 * The embeddings half of an upstream protocol, for protocols that have one (Anthropic has none:
 * the registry refuses an embedding model served over a protocol without it). Same transport,
 * SSRF guard, time-outs and error parsing as chat.
 */
export interface UpstreamEmbeddings {
  /** Most inputs one upstream call may carry; the adapter splits a larger request into calls of this size. */
  readonly maxInputs: number;
  /** Whether token-id inputs can be sent, or only text. */
  readonly tokenInputs: boolean;
  /** The URL to POST `inputs` inputs to. */
  url(baseUrl: string, upstreamModel: string, inputs: number): string;
  headers(apiKey: string): Record<string, string>;
  /** Canonical request → wire body, with what could not be carried. */
  encode(request: EmbeddingRequest, upstreamModel: string): Converted<Record<string, unknown>>;
  /** Wire response body → the vectors (and usage, where the protocol reports it); `inputs` is how many were sent. */
  decode(body: Record<string, unknown>, inputs: number): EmbeddingResponse;
}

/**
 * An upstream protocol, described once by its protocol library: everything the gateway needs to
 * call a provider that speaks it. The providers library turns each into an adapter (one generic
 * implementation), the router reads its parameters, the registry its id. Adding an upstream
 * protocol is a library exporting one of these and one line in `@rosetta/protocols/upstreams`.
 */
export interface UpstreamProtocol {
  readonly id: UpstreamProtocolId;
  /** Request parameters this protocol can carry at all; the router filters endpoints by them. */
  readonly parameters: readonly string[];
  /** Where a wire body keeps its output cap (paths into the body), to lower it to the endpoint's. */
  readonly outputCapFields: ReadonlyArray<readonly string[]>;
  /** Where it keeps a thinking budget that must stay below that cap (Claude's), to lower it too. */
  readonly thinkingBudgetFields?: ReadonlyArray<readonly string[]>;
  /** The URL to POST to, from the provider's base URL. */
  url(baseUrl: string, upstreamModel: string, stream: boolean): string;
  /** Credentials and protocol headers (the client's own, where the protocol forwards them). */
  headers(apiKey: string, request: CanonicalRequest): Record<string, string>;
  /** Canonical request → wire body, with what could not be carried. */
  encode(request: CanonicalRequest, endpoint: UpstreamEndpoint): Converted<Record<string, unknown>>;
  /** Wire response body → canonical response. */
  decode(body: Record<string, unknown>): CanonicalResponse;
  /** The streamed body's framing → parsed chunks. */
  parseStream(source: AsyncIterable<Uint8Array | string>): AsyncIterable<unknown>;
  /**
   * A cloud platform that wraps this protocol's stream in framing of its own (Claude's events in
   * Bedrock's event-stream): its parser, yielding the chunks `parseStream` would. Such a stream
   * has no same-protocol pass-through: its frames are not the public API's.
   */
  readonly platformStreams?: Partial<Record<'azure' | 'bedrock' | 'vertex', (source: AsyncIterable<Uint8Array | string>) => AsyncIterable<unknown>>>;
  /** A fresh decoder for one stream's chunks. */
  streamDecoder(): { push(chunk: unknown): StreamEvent[]; end(): StreamEvent[] };
  /**
   * A fresh scanner of the stream's SSE frames, where a client of this same wire format can be
   * sent the upstream's frames as they came (docs/decisions/0017); the dialect of this id then
   * has `ChatExchange.passThroughFraming`.
   */
  streamScanner?(): StreamScanner;
  /** The provider's error message from an error body. */
  parseError(text: string): { message: string };
  /**
   * Whether an error answer says the model does not reason and refused the reasoning parameters
   * it was sent: a registry mismatch the adapter learns from (it retries once without them),
   * not a failure of the endpoint.
   */
  refusesReasoning?(status: number, text: string): boolean;
  /** Embeddings, where the protocol has them. */
  readonly embeddings?: UpstreamEmbeddings;
}

/**
 * The header that carries a provider's key, or none for a provider that takes no key (a local
 * server such as Ollama or vLLM registered without `api_key` or `api_key_env`).
 */
export function credentialHeader(name: string, value: string, apiKey: string): Record<string, string> {
  return apiKey === '' ? {} : { [name]: value };
}
