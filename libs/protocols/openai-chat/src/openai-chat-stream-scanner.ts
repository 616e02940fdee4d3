/**
 * Upstream Chat Completions frames → the frames themselves, for a client of the same dialect, and
 * what the gateway reads of them (docs/decisions/0017): the first chunk (`start`), usage, the finish
 * and errors. Nothing is sequenced into blocks and no tool call is accumulated: each chunk is
 * parsed once and only its output's length, its finish_reason and its usage are looked at.
 * `finish` follows the same rule as the full decoder: it waits for usage after the finish_reason.
 */
import type { FinishReason, StreamEvent, Usage } from '@rosetta/canonical';
import { isRecord, numberField, parseFrameData, stringField, upstreamStreamFailure, wireFrame, type JsonObject, type SseFrame, type StreamScanner } from '@rosetta/protocols/common';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason';
import { mapOpenAIChatUsage } from './map-openai-chat-usage';
import { upstreamErrorMessage } from './openai-chat-stream-decoder';

export class OpenAIChatStreamScanner implements StreamScanner {
  private started = false;
  private sawToolCall = false;
  private finishReason?: FinishReason;
  private usage?: Usage;
  private done = false;

  push(frame: SseFrame): StreamEvent[] {
    // The framing writes its own [DONE] after the finish: a stream cut before it still ends cleanly once usage came.
    if (this.done || frame.data.trim() === '[DONE]') return [];
    const chunk = parseFrameData(frame);
    if (!isRecord(chunk)) return [];
    // openai-node treats a named `error` event like an `{error}` chunk.
    const error = frame.event === 'error' && !('error' in chunk) ? chunk : chunk['error'];
    if (error !== undefined && error !== null) return [this.fail(upstreamErrorMessage(error))];
    const events: StreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push(startEvent(chunk));
    }
    const usage = mapOpenAIChatUsage(chunk['usage']);
    if (usage) {
      this.usage = usage;
      events.push({ type: 'usage', usage });
    }
    const { outputChars, content } = this.scanChoices(chunk['choices']);
    events.push(wireFrame(frame, chunk, outputChars, content));
    // Usage seen with or after the finish_reason is final; earlier (per-chunk) usage is not.
    if (usage && this.finishReason) events.push(this.finish());
    return events;
  }

  end(): StreamEvent[] {
    if (this.done) return [];
    if (this.finishReason) return [this.finish()];
    return [this.fail('stream ended before a finish_reason')];
  }

  /** The output's length in every choice, and whether there is output (a tool call's name counts; so does the finish). */
  private scanChoices(choices: unknown): { outputChars: number; content: boolean } {
    let outputChars = 0;
    let content = false;
    if (!Array.isArray(choices)) return { outputChars, content };
    for (const choice of choices) {
      if (!isRecord(choice)) continue;
      const delta = choice['delta'];
      if (isRecord(delta)) {
        outputChars += textLength(delta, 'content') + textLength(delta, 'reasoning_content') + textLength(delta, 'reasoning') + textLength(delta, 'refusal');
        const calls = delta['tool_calls'];
        if (Array.isArray(calls) && calls.length > 0) {
          this.sawToolCall = content = true;
          outputChars += calls.reduce((sum: number, call: unknown) => sum + argumentsLength(call), 0);
        }
      }
      const reason = stringField(choice, 'finish_reason');
      if (reason && (choice['index'] ?? 0) === 0 && !this.finishReason) {
        this.finishReason = mapOpenAIChatFinishReason(reason, this.sawToolCall);
        content = true;
      }
    }
    return { outputChars, content: content || outputChars > 0 };
  }

  private finish(): StreamEvent {
    this.done = true;
    const finishReason = this.finishReason ?? { unified: 'stop' };
    return this.usage ? { type: 'finish', finishReason, usage: this.usage } : { type: 'finish', finishReason };
  }

  private fail(message: string): StreamEvent {
    this.done = true;
    return upstreamStreamFailure(message);
  }
}

function startEvent(chunk: JsonObject): StreamEvent {
  return {
    type: 'start',
    id: stringField(chunk, 'id') ?? '',
    model: stringField(chunk, 'model') ?? '',
    created: numberField(chunk, 'created') ?? Math.floor(Date.now() / 1000),
  };
}

function textLength(delta: JsonObject, key: string): number {
  const value = delta[key];
  return typeof value === 'string' ? value.length : 0;
}

function argumentsLength(call: unknown): number {
  const fn = isRecord(call) ? call['function'] : undefined;
  return isRecord(fn) ? textLength(fn, 'arguments') : 0;
}
