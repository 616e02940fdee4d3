/**
 * Upstream Responses events → the events themselves, for a Responses client, and what the
 * gateway reads of them (docs/decisions/0017): the first event (`start`), usage and the finish
 * from the terminal event, errors, and how much output each event carries. No blocks are
 * sequenced: each event is parsed once and only its type, its delta's length, its item's kind and
 * a terminal response's status and usage are looked at. Output is counted as the full decoder
 * counts it (a second summary part's paragraph break, a call's arguments sent whole at its end).
 */
import type { StreamEvent } from '@rosetta/canonical';
import { isRecord, numberField, parseFrameData, recordField, stringField, upstreamStreamFailure, wireFrame, type JsonObject, type SseFrame, type StreamScanner } from '@rosetta/protocols/common';
import { mapOpenAIResponsesStatus, mapOpenAIResponsesUsage } from './map-openai-responses-usage';
import { errorMessage, startEvent } from './openai-responses-stream-decoder';
import { customArguments } from './tool-names';

/** What an open output item needs to count its output at the end. */
type OpenItem = { kind: 'reasoning'; summaries: number } | { kind: 'call'; custom: boolean; streamed: boolean } | { kind: 'other' };

const DELTAS: ReadonlySet<string> = new Set(['response.output_text.delta', 'response.refusal.delta', 'response.reasoning_summary_text.delta', 'response.reasoning_text.delta']);

export class OpenAIResponsesStreamScanner implements StreamScanner {
  private started = false;
  private done = false;
  private toolCalls = 0;
  /** Output indexes seen so far (items are numbered 0, 1, 2… in order). */
  private itemCount = 0;
  private readonly items = new Map<number, OpenItem>();

  push(frame: SseFrame): StreamEvent[] {
    if (this.done || frame.data.trim() === '[DONE]') return [];
    const data = parseFrameData(frame);
    if (!isRecord(data)) return [];
    const type = stringField(data, 'type') ?? '';
    // A named `error` event, or an event carrying one (openai-node reads both as the stream's error).
    if (frame.event === 'error' || type === 'error') return [this.fail(stringField(data, 'message') ?? errorMessage(data['error']))];
    if (data['error'] !== undefined && data['error'] !== null && type !== 'response.failed') return [this.fail(errorMessage(data['error']))];
    if (type === 'response.failed') return [this.fail(errorMessage(recordField(recordField(data, 'response') ?? {}, 'error') ?? data['error']))];
    const events: StreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push(startEvent(recordField(data, 'response') ?? {}));
    }
    if (type === 'response.completed' || type === 'response.incomplete') {
      this.done = true;
      const response = recordField(data, 'response') ?? {};
      const usage = mapOpenAIResponsesUsage(response['usage']);
      const finishReason = mapOpenAIResponsesStatus(response, this.toolCalls > 0);
      if (usage) events.push({ type: 'usage', usage });
      events.push(wireFrame(frame, data, 0, true), usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason });
      return events;
    }
    if ((type === 'response.output_item.added' || type === 'response.output_item.done') && !this.inOrder(data)) {
      // The client's response numbers its items by this index: a stream that does not is not relayed.
      return [this.fail('malformed stream event: output items out of order')];
    }
    const { outputChars, content } = this.scan(type, data);
    events.push(wireFrame(frame, data, outputChars, content));
    return events;
  }

  end(): StreamEvent[] {
    return this.done ? [] : [this.fail('stream ended before the response completed')];
  }

  /** An item event names an item object and the next output index or one already seen. */
  private inOrder(e: JsonObject): boolean {
    const index = e['output_index'];
    if (!isRecord(e['item']) || typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index > this.itemCount) return false;
    this.itemCount = Math.max(this.itemCount, index + 1);
    return true;
  }

  private scan(type: string, e: JsonObject): { outputChars: number; content: boolean } {
    if (DELTAS.has(type) || type === 'response.function_call_arguments.delta') {
      const length = stringField(e, 'delta')?.length ?? 0;
      const item = this.items.get(numberField(e, 'output_index') ?? -1);
      if (type === 'response.function_call_arguments.delta') {
        if (item?.kind !== 'call' || item.custom) return { outputChars: 0, content: false };
        item.streamed = true;
      }
      return { outputChars: length, content: length > 0 };
    }
    const index = numberField(e, 'output_index') ?? -1;
    const item = recordField(e, 'item') ?? {};
    switch (type) {
      case 'response.output_item.added':
        return { outputChars: 0, content: this.added(index, stringField(item, 'type')) };
      case 'response.reasoning_summary_part.added': {
        const open = this.items.get(index);
        // Several summary parts read as paragraphs of one thought.
        return open?.kind === 'reasoning' && open.summaries++ > 0 ? { outputChars: 2, content: true } : { outputChars: 0, content: false };
      }
      case 'response.content_part.done':
        return { outputChars: 0, content: true };
      case 'response.output_item.done':
        return { outputChars: this.doneChars(index, item), content: true };
      default:
        return { outputChars: 0, content: false };
    }
  }

  /** A call counts as output from its start (its name is); a message or reasoning only once it says something. */
  private added(index: number, type: string | undefined): boolean {
    if (type === 'function_call' || type === 'custom_tool_call') {
      this.toolCalls++;
      this.items.set(index, { kind: 'call', custom: type === 'custom_tool_call', streamed: false });
      return true;
    }
    this.items.set(index, type === 'reasoning' ? { kind: 'reasoning', summaries: 0 } : { kind: 'other' });
    return false;
  }

  /** A call's arguments, when they were not streamed. */
  private doneChars(index: number, item: JsonObject): number {
    const open = this.items.get(index);
    this.items.delete(index);
    if (open?.kind !== 'call') return 0;
    const args = open.custom ? customArguments(stringField(item, 'input') ?? '') : stringField(item, 'arguments');
    return (open.custom || !open.streamed) && args ? args.length : 0;
  }

  private fail(message: string): StreamEvent {
    this.done = true;
    return upstreamStreamFailure(message);
  }
}
