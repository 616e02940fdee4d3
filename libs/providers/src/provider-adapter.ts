import type { AbortWatch } from './abort-line';
import type { CanonicalRequest, CanonicalResponse, EmbeddingRequest, EmbeddingResponse, UpstreamProtocolId, StreamEvent, TranslationWarning } from '@rosetta/canonical';

export interface UpstreamTimeoutsMs {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
  totalMs: number;
  /** A streamed attempt with another candidate behind it waits this long for headers (0: off). */
  fallbackFirstByteMs?: number;
}

/** Where and how to call: one provider endpoint serving one model, with its credentials. */
export interface UpstreamTarget {
  provider: string;
  protocol: UpstreamProtocolId;
  /** e.g. `https://api.openai.com/v1`; the adapter appends its protocol's path. */
  baseUrl: string;
  apiKey: string;
  upstreamModel: string;
  /** The endpoint's output limit; a default for protocols that require max_tokens. */
  maxCompletionTokens?: number;
  /** Whether the endpoint reasons (registry `reasoning`): decides how thinking settings translate. */
  reasoning?: boolean;
  /** Set when the client asked for more output than this endpoint can give: clamp to it. */
  outputTokenCap?: number;
  /** Embedding endpoints: the vector size the upstream gives, and whether it takes a smaller one. */
  dimensions?: number;
  customDimensions?: boolean;
  timeouts: UpstreamTimeoutsMs;
  /** Extra headers to forward (e.g. anthropic-beta). */
  headers?: Record<string, string>;
  /** A caller-chosen base URL that passed the SSRF guard: connect only to its pinned address. */
  dispatcher?: import('undici').Dispatcher;
  /** Reached through a cloud platform: its URL layout and credentials (ARCHITECTURE §9). */
  platform?: import('./credentials/platform-request').PlatformTarget;
}

/** One upstream attempt, whatever it asks: where to, its abort signal, its ids. */
export interface UpstreamLeg {
  target: UpstreamTarget;
  /** Aborted when the client goes away or the total time-out passes. */
  signal: AbortWatch;
  requestId: string;
  /** W3C trace context of the attempt's span (`traceparent`, `tracestate`), sent upstream; only when tracing is on. */
  traceHeaders?: Readonly<Record<string, string>>;
}

export interface UpstreamCall extends UpstreamLeg {
  request: CanonicalRequest;
  /**
   * The client can be sent this upstream's own frames (docs/decisions/0017): a stream whose
   * request took the same-protocol fast path is then scanned, not decoded.
   */
  passThrough?: boolean;
}

export interface UpstreamEmbeddingCall extends UpstreamLeg {
  request: EmbeddingRequest;
}

export interface AdapterEmbedding {
  response: EmbeddingResponse;
  warnings: TranslationWarning[];
}

export interface AdapterCompletion {
  response: CanonicalResponse;
  warnings: TranslationWarning[];
}

export interface AdapterStream {
  /** Resolves once the upstream answered 2xx; events then flow as the upstream sends them. */
  events: AsyncIterable<StreamEvent>;
  warnings: TranslationWarning[];
  /** The events carry the upstream's frames (`wire`), for the client's pass-through framing. */
  passThrough?: boolean;
}

/**
 * One implementation per upstream protocol. Adapters translate canonical ⇄ wire with the protocol
 * codec and move bytes with the shared transport; they never choose between providers.
 * Failures are thrown as GatewayError (`upstream_error`, retryable where a retry may help).
 */
export interface ProviderAdapter {
  readonly protocol: UpstreamProtocolId;
  complete(call: UpstreamCall): Promise<AdapterCompletion>;
  stream(call: UpstreamCall): Promise<AdapterStream>;
  /** Embeddings, for protocols that have them (the registry never routes an embedding model elsewhere). */
  embed?(call: UpstreamEmbeddingCall): Promise<AdapterEmbedding>;
}

export const PROVIDER_ADAPTERS = Symbol('PROVIDER_ADAPTERS');
