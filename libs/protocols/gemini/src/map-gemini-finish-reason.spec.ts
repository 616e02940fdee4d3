import type { FinishReason } from '@rosetta/canonical';
import { mapGeminiBlockReason, mapGeminiFinishReason, toGeminiFinishReason } from './map-gemini-finish-reason';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, { unified: 'stop', raw: 'STOP' }],
    ['STOP', true, { unified: 'tool_calls', raw: 'STOP' }],
    ['MAX_TOKENS', true, { unified: 'length', raw: 'MAX_TOKENS' }],
    ['SAFETY', false, { unified: 'content_filter', raw: 'SAFETY' }],
    ['RECITATION', false, { unified: 'content_filter', raw: 'RECITATION' }],
    ['BLOCKLIST', false, { unified: 'content_filter', raw: 'BLOCKLIST' }],
    ['PROHIBITED_CONTENT', false, { unified: 'content_filter', raw: 'PROHIBITED_CONTENT' }],
    ['SPII', false, { unified: 'content_filter', raw: 'SPII' }],
    ['IMAGE_SAFETY', false, { unified: 'content_filter', raw: 'IMAGE_SAFETY' }],
    ['IMAGE_OTHER', false, { unified: 'other', raw: 'IMAGE_OTHER' }],
    ['MALFORMED_FUNCTION_CALL', false, { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' }],
    ['UNEXPECTED_TOOL_CALL', true, { unified: 'error', raw: 'UNEXPECTED_TOOL_CALL' }],
    ['TOO_MANY_TOOL_CALLS', true, { unified: 'error', raw: 'TOO_MANY_TOOL_CALLS' }],
    ['LANGUAGE', false, { unified: 'other', raw: 'LANGUAGE' }],
    ['OTHER', false, { unified: 'other', raw: 'OTHER' }],
    ['FINISH_REASON_UNSPECIFIED', false, { unified: 'other', raw: 'FINISH_REASON_UNSPECIFIED' }],
    ['SOMETHING_NEW', false, { unified: 'other', raw: 'SOMETHING_NEW' }],
    [undefined, false, { unified: 'stop' }],
    [undefined, true, { unified: 'tool_calls' }],
  ])('reads %s (function calls: %s)', (raw, hasToolCalls, expected) => {
    expect(mapGeminiFinishReason(raw, hasToolCalls)).toEqual(expected);
  });

  it('reads a blocked prompt as a content filter keeping the block reason', () => {
    expect(mapGeminiBlockReason('BLOCKLIST')).toEqual({ unified: 'content_filter', raw: 'BLOCKLIST' });
  });
});

describe('toGeminiFinishReason', () => {
  it.each<[FinishReason, string]>([
    [{ unified: 'stop' }, 'STOP'],
    [{ unified: 'stop_sequence', stopSequence: 'END' }, 'STOP'],
    [{ unified: 'tool_calls', raw: 'tool_use' }, 'STOP'],
    [{ unified: 'pause', raw: 'pause_turn' }, 'STOP'],
    [{ unified: 'other' }, 'STOP'],
    [{ unified: 'length', raw: 'max_tokens' }, 'MAX_TOKENS'],
    [{ unified: 'context_window_exceeded' }, 'MAX_TOKENS'],
    [{ unified: 'content_filter', raw: 'content_filter' }, 'SAFETY'],
    [{ unified: 'refusal' }, 'SAFETY'],
    [{ unified: 'error' }, 'OTHER'],
    // Gemini's own value goes back when it still means the same thing.
    [{ unified: 'content_filter', raw: 'RECITATION' }, 'RECITATION'],
    [{ unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' }, 'MALFORMED_FUNCTION_CALL'],
    [{ unified: 'other', raw: 'LANGUAGE' }, 'LANGUAGE'],
    [{ unified: 'tool_calls', raw: 'STOP' }, 'STOP'],
    [{ unified: 'length', raw: 'SAFETY' }, 'MAX_TOKENS'],
  ])('writes %j as %s', (reason, wire) => {
    expect(toGeminiFinishReason(reason)).toBe(wire);
  });
});
