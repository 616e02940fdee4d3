import type { ApiKeyRecord } from '@rosetta/auth';
import type { CanonicalResponse, EmbeddingResponse, UpstreamProtocolId, StreamEvent, TranslationWarning } from '@rosetta/canonical';
import type { RequestCount } from '@rosetta/limits';
import type { RequestSpan } from '@rosetta/platform';
import type { AbortWatch } from '@rosetta/providers';
import type { TokenPricing, UsageDraft } from '@rosetta/usage';

/** What served the request: surfaced as x-rosetta-* headers and recorded for usage. */
export interface ServedMeta {
  model: string;
  provider: string;
  /** The upstream protocol that served it. */
  protocol: UpstreamProtocolId;
  /** The serving endpoint's prices, for the usage ledger. */
  pricing?: TokenPricing;
  attempts: number;
  route?: string;
  warnings: TranslationWarning[];
  /** What the answer cost (USD), known before the response is written only when it is not streamed. */
  costUsd?: number;
  /** The stream carries the upstream's own frames, for the dialect's pass-through framing (docs/decisions/0017). */
  passThrough?: boolean;
}

export interface CompletionOutcome {
  response: CanonicalResponse;
  meta: ServedMeta;
}

export interface EmbeddingOutcome {
  response: EmbeddingResponse;
  meta: ServedMeta;
}

export interface StreamOutcome {
  /** Already past the first upstream event: a failure before it fell back instead. */
  events: AsyncIterable<StreamEvent>;
  meta: ServedMeta;
}

/** A stream as the chat use case answers it, with the prompt's token estimate (made once per request). */
export interface ChatStream extends StreamOutcome {
  /** What was reserved and routed on; dialects whose streams announce the prompt's size up front show it. */
  promptTokens: number;
}

export interface CallContext {
  requestId: string;
  /** Aborted when the client disconnects. */
  signal: AbortWatch;
  /** The caller's key (its plan sets the token budget); absent for unauthenticated internal calls. */
  key?: ApiKeyRecord;
  /**
   * The request's count against its key's RPM: made up front, or deferred to admission (which then
   * counts it in the same script as the tokens and budgets). Shared with the data plane.
   */
  requestCount?: RequestCount;
  /**
   * Who the request is for (decision 0033): the ledger's end user, and the one its key's end-user
   * budget holds. The caller's word, never an identity: it changes nothing else a key may do.
   */
  endUser?: string;
  /** The request's `Cache-Control`: `no-cache` and `no-store` steer the response cache. */
  cacheControl?: string | string[];
  /** Sets response headers before the response starts (rate-limit token headers). */
  setHeaders?(headers: Record<string, string>): void;
  /** The request's usage-ledger row, filled in as it goes and recorded when the response closes. */
  usage?: UsageDraft;
  /**
   * Runs `fill` right before the row is recorded: a stream the client cuts is recorded when the
   * connection closes, before its relay has finished, so the relay says then what it has used.
   */
  beforeRecord?(fill: () => void): void;
  /** The request's trace span, only when tracing is on: each upstream attempt gets a child span. */
  trace?: RequestSpan;
}
