import { mapBedrockConverseStopReason } from './map-bedrock-converse-stop-reason';

describe('mapBedrockConverseStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop_sequence'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
    ['model_context_window_exceeded', 'context_window_exceeded'],
    ['malformed_model_output', 'error'],
    ['malformed_tool_use', 'error'],
    ['a_reason_added_later', 'other'],
  ])('maps %s to %s, keeping the raw value', (raw, unified) => {
    expect(mapBedrockConverseStopReason(raw)).toEqual({ unified, raw });
  });

  it('reads a missing reason as a plain stop', () => {
    expect(mapBedrockConverseStopReason(undefined)).toEqual({ unified: 'stop' });
  });
});
