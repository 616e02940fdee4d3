/**
 * Upstream Anthropic SSE frames → the frames themselves, for a client of the same dialect, and
 * what the gateway reads of them (docs/decisions/0017): `start`, usage (input from
 * `message_start`, the rest cumulatively from `message_delta`, merged as the full decoder merges
 * them), the finish at `message_stop`, and errors. Blocks are not tracked: a frame's output is
 * the length of the text, thinking or tool input it carries. Signatures travel in the frames as
 * Anthropic wrote them: native signatures are never wrapped.
 */
import type { FinishReason, StreamEvent } from '@rosetta/canonical';
import { isNumber, isRecord, parseFrameData, recordField, stringField, wireFrame, type JsonObject, type SseFrame, type StreamScanner } from '@rosetta/protocols/common';
import { anthropicStreamError } from './anthropic-messages-stream-decoder';
import { mapAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason';
import { mapAnthropicMessagesUsage } from './map-anthropic-messages-usage';

export class AnthropicMessagesStreamScanner implements StreamScanner {
  private started = false;
  private finishReason?: FinishReason;
  /** Raw usage counters, overlaid as message_delta events update them. */
  private readonly rawUsage: JsonObject = {};
  private done = false;

  push(frame: SseFrame): StreamEvent[] {
    if (this.done) return [];
    const data = parseFrameData(frame);
    if (!isRecord(data)) return [];
    const type = stringField(data, 'type') ?? frame.event;
    if (type === 'error') return this.fail(recordField(data, 'error') ?? data);
    const events: StreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push(startEvent(recordField(data, 'message') ?? {}));
    }
    switch (type) {
      case 'message_start':
        this.overlayUsage(recordField(data, 'message')?.['usage']);
        events.push(wireFrame(frame, data, 0));
        return events;
      case 'content_block_start':
        return [...events, this.blockStart(frame, data)];
      case 'content_block_delta':
        events.push(wireFrame(frame, data, deltaLength(recordField(data, 'delta') ?? {})));
        return events;
      case 'message_delta':
        return [...events, ...this.messageDelta(data), wireFrame(frame, data, 0)];
      case 'message_stop':
        return [...events, wireFrame(frame, data, 0), this.finish()];
      default:
        // content_block_stop, ping, and event types Anthropic may add later: forwarded, clients ignore what they do not know.
        events.push(wireFrame(frame, data, 0));
        return events;
    }
  }

  end(): StreamEvent[] {
    return this.done ? [] : this.fail({ message: 'stream ended before message_stop' });
  }

  /** A tool call or redacted thinking is output from its start; a text or thinking block from its first character. */
  private blockStart(frame: SseFrame, data: JsonObject): StreamEvent {
    const block = recordField(data, 'content_block') ?? {};
    const kind = stringField(block, 'type');
    const chars = (stringField(block, 'text') ?? stringField(block, 'thinking') ?? '').length;
    return wireFrame(frame, data, chars, chars > 0 || kind === 'tool_use' || kind === 'redacted_thinking');
  }

  private messageDelta(data: JsonObject): StreamEvent[] {
    const delta = recordField(data, 'delta') ?? {};
    const stopReason = stringField(delta, 'stop_reason');
    if (stopReason) this.finishReason = mapAnthropicMessagesStopReason(stopReason, stringField(delta, 'stop_sequence'));
    this.overlayUsage(data['usage']);
    const usage = mapAnthropicMessagesUsage(this.rawUsage);
    return usage ? [{ type: 'usage', usage }] : [];
  }

  private finish(): StreamEvent {
    this.done = true;
    const finishReason = this.finishReason ?? mapAnthropicMessagesStopReason(undefined);
    const usage = mapAnthropicMessagesUsage(this.rawUsage);
    return usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason };
  }

  /** message_delta counts are cumulative and name only what applies: present values replace. */
  private overlayUsage(raw: unknown): void {
    if (!isRecord(raw)) return;
    for (const [key, value] of Object.entries(raw)) {
      if (isNumber(value) || isRecord(value)) this.rawUsage[key] = value;
    }
  }

  private fail(error: JsonObject): StreamEvent[] {
    this.done = true;
    return [{ type: 'error', error: anthropicStreamError(error) }];
  }
}

function startEvent(message: JsonObject): StreamEvent {
  return { type: 'start', id: stringField(message, 'id') ?? '', model: stringField(message, 'model') ?? '', created: Math.floor(Date.now() / 1000) };
}

/** The output a content_block_delta carries; a signature is not output. */
function deltaLength(delta: JsonObject): number {
  return (stringField(delta, 'text') ?? stringField(delta, 'thinking') ?? stringField(delta, 'partial_json') ?? '').length;
}
