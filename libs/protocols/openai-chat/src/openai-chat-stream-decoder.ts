/**
 * Upstream Chat Completions chunks → canonical stream events, one chunk at a time.
 *
 * Text, thinking and refusal arrive as untyped deltas; this gives each run of one kind its own
 * block (indexes 0, 1, 2… in order of appearance), closing the open one when another kind starts.
 * `finish` waits for usage, which OpenAI sends in a separate chunk after the finish_reason, and is
 * emitted exactly once: when usage arrives, or at `end()`.
 */
import type { FinishReason, StreamEvent, Usage } from '@rosetta/canonical';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason';
import { mapOpenAIChatUsage } from './map-openai-chat-usage';
import { ToolCallAccumulator } from './tool-call-accumulator';
import { isRecord, numberField, recordField, stringField, upstreamStreamFailure, type JsonObject } from '@rosetta/protocols/common';

type ContentKind = 'text' | 'thinking' | 'refusal';

interface ClosingGroup {
  index: number;
  events: StreamEvent[];
}

export class OpenAIChatStreamDecoder {
  private started = false;
  private nextBlockIndex = 0;
  private openBlock?: { kind: ContentKind; index: number };
  private readonly toolCalls = new ToolCallAccumulator(() => this.nextBlockIndex++);
  private finishReason?: FinishReason;
  private usage?: Usage;
  /** Set once `finish` or `error` has been emitted: the stream is over for the consumer. */
  private done = false;

  push(chunk: unknown): StreamEvent[] {
    if (this.done || !isRecord(chunk)) return [];
    const error = chunk['error'];
    if (error !== undefined && error !== null) return [this.fail(upstreamErrorMessage(error))];
    const choice = firstChoice(chunk);
    const usage = mapOpenAIChatUsage(chunk['usage']);
    // Azure opens with a prompt-filter chunk (no choices, empty id and model): nothing to decode.
    if (!choice && !usage) return [];
    const events: StreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push(startEvent(chunk));
    }
    if (choice && !this.finishReason) events.push(...this.pushChoice(choice));
    if (usage) {
      this.usage = usage;
      events.push({ type: 'usage', usage });
      // Usage seen with or after the finish_reason is final; earlier (per-chunk) usage is not.
      if (this.finishReason) events.push(this.finish());
    }
    return events;
  }

  end(): StreamEvent[] {
    if (this.done) return [];
    if (this.finishReason) return [this.finish()];
    return [this.fail('stream ended before a finish_reason')];
  }

  private pushChoice(choice: JsonObject): StreamEvent[] {
    const delta = recordField(choice, 'delta') ?? {};
    const events: StreamEvent[] = [];
    const reasoning = stringField(delta, 'reasoning_content') || stringField(delta, 'reasoning');
    if (reasoning) events.push(...this.contentDelta('thinking', reasoning));
    const text = stringField(delta, 'content');
    if (text) events.push(...this.contentDelta('text', text));
    const refusal = stringField(delta, 'refusal');
    if (refusal) events.push(...this.contentDelta('refusal', refusal));
    const toolCalls = delta['tool_calls'];
    if (Array.isArray(toolCalls)) {
      for (const fragment of toolCalls) {
        if (this.toolCalls.isNewCall(fragment)) events.push(...this.closeOpenBlock());
        events.push(...this.toolCalls.push(fragment));
      }
    }
    const finishReason = stringField(choice, 'finish_reason');
    if (finishReason) {
      events.push(...this.closeAll());
      this.finishReason = mapOpenAIChatFinishReason(finishReason, this.toolCalls.count > 0);
    }
    return events;
  }

  private contentDelta(kind: ContentKind, text: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (this.openBlock?.kind !== kind) {
      events.push(...this.closeOpenBlock());
      const index = this.nextBlockIndex++;
      this.openBlock = { kind, index };
      // Refusal text has no start or end event in the canonical stream, only deltas.
      if (kind === 'text') events.push({ type: 'text-start', index });
      if (kind === 'thinking') events.push({ type: 'thinking-start', index });
    }
    const index = this.openBlock?.index ?? 0;
    if (kind === 'text') events.push({ type: 'text-delta', index, text });
    else if (kind === 'thinking') events.push({ type: 'thinking-delta', index, text });
    else events.push({ type: 'refusal-delta', index, text });
    return events;
  }

  private closeOpenBlock(): StreamEvent[] {
    const group = this.openBlockClosing();
    this.openBlock = undefined;
    return group?.events ?? [];
  }

  private openBlockClosing(): ClosingGroup | undefined {
    const block = this.openBlock;
    if (!block || block.kind === 'refusal') return undefined;
    const type = block.kind === 'text' ? 'text-end' : 'thinking-end';
    return { index: block.index, events: [{ type, index: block.index }] };
  }

  /** Every open block ends, in block order, before the finish is known to the consumer. */
  private closeAll(): StreamEvent[] {
    const open = this.openBlockClosing();
    this.openBlock = undefined;
    const groups = [...(open ? [open] : []), ...this.toolCalls.close()];
    return groups.sort((a, b) => a.index - b.index).flatMap((group) => group.events);
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

/** The canonical stream carries one candidate: choice 0. */
function firstChoice(chunk: JsonObject): JsonObject | undefined {
  const choices = chunk['choices'];
  if (!Array.isArray(choices)) return undefined;
  const choice: unknown = choices.find((c: unknown) => isRecord(c) && (c['index'] ?? 0) === 0);
  return isRecord(choice) ? choice : undefined;
}

export function upstreamErrorMessage(error: unknown): string {
  if (typeof error === 'string' && error !== '') return error;
  const message = isRecord(error) ? stringField(error, 'message') : undefined;
  return message || 'unknown error';
}
