import type { CanonicalResponse, ProtocolId, StreamEvent, TranslationWarning } from '@rosetta/canonical';

/** What served the request: surfaced as x-rosetta-* headers and recorded for usage. */
export interface ServedMeta {
  model: string;
  provider: string;
  /** The upstream protocol that served it. */
  protocol: ProtocolId;
  attempts: number;
  route?: string;
  warnings: TranslationWarning[];
}

export interface CompletionOutcome {
  response: CanonicalResponse;
  meta: ServedMeta;
}

export interface StreamOutcome {
  /** Already past the first upstream event: a failure before it fell back instead. */
  events: AsyncIterable<StreamEvent>;
  meta: ServedMeta;
}

export interface CallContext {
  requestId: string;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
}
