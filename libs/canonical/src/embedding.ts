import type { RequestPassthrough } from './request';
import type { RoutingPreferences } from './routing-preferences';
import type { Usage } from './usage';

/**
 * One value to embed: text (with Gemini's per-input task hints, which only Gemini upstreams can
 * carry), or token ids (OpenAI's pre-tokenised input, which only OpenAI-protocol upstreams take).
 */
export type EmbeddingInput =
  | { type: 'text'; text: string; taskType?: string; title?: string }
  | { type: 'tokens'; tokens: number[] };

/** An embeddings request, whatever dialect it came in. The answer keeps the inputs' order. */
export interface EmbeddingRequest {
  /** The requested public model id (`rosetta/...`). */
  model: string;
  inputs: EmbeddingInput[];
  /** Output size (OpenAI `dimensions`, Gemini `outputDimensionality`); the model's own when absent. */
  dimensions?: number;
  /** Who the request is for (OpenAI `user`): forwarded, and the ledger's end user (decision 0033). */
  user?: string;
  routing: RoutingPreferences;
  /** The body as sent, for a same-protocol upstream (fields Rosetta does not model survive). */
  passthrough?: RequestPassthrough;
}

/** The vectors, one per input in the inputs' order, as plain numbers (float32 values on the wire). */
export interface EmbeddingResponse {
  /** The served model: the public id once the gateway has rewritten it. */
  model: string;
  embeddings: number[][];
  /** Input tokens as the upstream reported them; absent when it reports none (Gemini). */
  usage?: Usage;
}
