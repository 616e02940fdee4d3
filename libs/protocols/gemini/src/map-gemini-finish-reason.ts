/**
 * Gemini `finishReason` ⇄ canonical finish reason. Gemini says STOP for a natural end, a stop
 * sequence and a turn of function calls alike, so the calls decide (`tool_calls`), and decoding
 * never yields `stop_sequence`. A blocked prompt has no candidate at all; its
 * `promptFeedback.blockReason` is read as a content filter.
 */
import type { FinishReason, UnifiedFinishReason } from '@rosetta/canonical';

const FROM_WIRE: Record<string, UnifiedFinishReason> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  IMAGE_RECITATION: 'content_filter',
  // Not a filter: generation stopped for another reason, or produced no image.
  IMAGE_OTHER: 'other',
  NO_IMAGE: 'other',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  LANGUAGE: 'other',
  OTHER: 'other',
  FINISH_REASON_UNSPECIFIED: 'other',
};

const TO_WIRE: Record<UnifiedFinishReason, string> = {
  stop: 'STOP',
  stop_sequence: 'STOP',
  tool_calls: 'STOP',
  pause: 'STOP',
  other: 'STOP',
  length: 'MAX_TOKENS',
  context_window_exceeded: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  refusal: 'SAFETY',
  error: 'OTHER',
};

export function mapGeminiFinishReason(raw: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (raw === null || raw === undefined || raw === '') return { unified: hasToolCalls ? 'tool_calls' : 'stop' };
  const unified = FROM_WIRE[raw] ?? 'other';
  return { unified: unified === 'stop' && hasToolCalls ? 'tool_calls' : unified, raw };
}

/** A prompt Gemini refused to answer: `promptFeedback.blockReason` with no candidates. */
export function mapGeminiBlockReason(blockReason: string): FinishReason {
  return { unified: 'content_filter', raw: blockReason };
}

/**
 * Gemini's own value goes back when it came from Gemini and still means the same (RECITATION,
 * MALFORMED_FUNCTION_CALL…); otherwise the closest one.
 */
export function toGeminiFinishReason(reason: FinishReason): string {
  const raw = reason.raw;
  if (raw !== undefined && FROM_WIRE[raw] !== undefined) {
    const unified = FROM_WIRE[raw];
    if (unified === reason.unified || (raw === 'STOP' && reason.unified === 'tool_calls')) return raw;
  }
  return TO_WIRE[reason.unified];
}
