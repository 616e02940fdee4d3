/**
 * Why generation stopped, unified, with the provider's raw value kept beside it.
 * `tool_calls` is its own reason in every dialect, even where the wire says STOP (Gemini).
 */
export type UnifiedFinishReason =
  | 'stop'
  | 'stop_sequence'
  | 'length'
  | 'tool_calls'
  | 'content_filter'
  | 'refusal'
  | 'context_window_exceeded'
  | 'pause'
  | 'error'
  | 'other';

export interface FinishReason {
  unified: UnifiedFinishReason;
  /** The upstream's own value, e.g. `end_turn`, `MAX_TOKENS`. */
  raw?: string;
  /** The stop sequence that fired, when the upstream says which. */
  stopSequence?: string;
}
