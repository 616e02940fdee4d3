/**
 * Upstream Responses events → canonical stream events, one event at a time. Each output item is a
 * block (indexes 0, 1, 2… in order); a message's text parts are text blocks of their own. The
 * canonical `finish` comes from `response.completed` / `.incomplete`, with the usage it carries.
 */
import type { StreamEvent } from '@rosetta/canonical';
import { isRecord, numberField, recordField, stringField, upstreamStreamFailure, type JsonObject } from '@rosetta/protocols/common';
import { reasoningPart } from './convert-openai-responses-output';
import { mapOpenAIResponsesStatus, mapOpenAIResponsesUsage } from './map-openai-responses-usage';
import { customArguments, flatName } from './tool-names';

type Block = { kind: 'text' | 'refusal'; index: number } | { kind: 'thinking'; index: number; summaries: number } | { kind: 'call'; index: number; custom: boolean; streamed: boolean };

export class OpenAIResponsesStreamDecoder {
  private started = false;
  private done = false;
  private nextIndex = 0;
  private toolCalls = 0;
  /** Open blocks by output item (a message may hold several parts: keyed by item and part). */
  private readonly blocks = new Map<string, Block>();

  push(chunk: unknown): StreamEvent[] {
    if (this.done || !isRecord(chunk)) return [];
    if (chunk['error'] !== undefined && chunk['type'] !== 'response.failed') return [this.fail(errorMessage(chunk['error']))];
    const type = stringField(chunk, 'type') ?? '';
    const events: StreamEvent[] = [];
    if (!this.started && type !== 'error') {
      this.started = true;
      events.push(startEvent(recordField(chunk, 'response') ?? {}));
    }
    events.push(...this.dispatch(type, chunk));
    return events;
  }

  end(): StreamEvent[] {
    return this.done ? [] : [this.fail('stream ended before the response completed')];
  }

  private dispatch(type: string, e: JsonObject): StreamEvent[] {
    const item = recordField(e, 'item') ?? {};
    const key = `${numberField(e, 'output_index') ?? -1}`;
    switch (type) {
      case 'response.output_item.added':
        return this.itemAdded(key, item);
      case 'response.content_part.added': {
        const part = recordField(e, 'part') ?? {};
        const kind = part['type'] === 'refusal' ? 'refusal' : 'text';
        const index = this.nextIndex++;
        this.blocks.set(`${key}/${numberField(e, 'content_index') ?? 0}`, { kind, index });
        return kind === 'text' ? [{ type: 'text-start', index }] : [];
      }
      case 'response.output_text.delta':
        return this.partDelta(e, key, 'text');
      case 'response.refusal.delta':
        return this.partDelta(e, key, 'refusal');
      case 'response.content_part.done': {
        const partKey = `${key}/${numberField(e, 'content_index') ?? 0}`;
        const block = this.blocks.get(partKey);
        this.blocks.delete(partKey);
        return block?.kind === 'text' ? [{ type: 'text-end', index: block.index }] : [];
      }
      case 'response.reasoning_summary_part.added': {
        const block = this.blocks.get(key);
        if (block?.kind !== 'thinking') return [];
        // Several summary parts read as paragraphs of one thought.
        return block.summaries++ > 0 ? [{ type: 'thinking-delta', index: block.index, text: '\n\n' }] : [];
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const block = this.blocks.get(key);
        const delta = stringField(e, 'delta');
        return block?.kind === 'thinking' && delta ? [{ type: 'thinking-delta', index: block.index, text: delta }] : [];
      }
      case 'response.function_call_arguments.delta': {
        const block = this.blocks.get(key);
        const delta = stringField(e, 'delta');
        if (block?.kind !== 'call' || block.custom || !delta) return [];
        block.streamed = true;
        return [{ type: 'tool-call-delta', index: block.index, argumentsDelta: delta }];
      }
      case 'response.output_item.done':
        return this.itemDone(key, item);
      case 'response.completed':
      case 'response.incomplete':
        return this.finish(recordField(e, 'response') ?? {});
      case 'response.failed':
        return [this.fail(errorMessage(recordField(recordField(e, 'response') ?? {}, 'error') ?? e['error']))];
      case 'error':
        return [this.fail(stringField(e, 'message') ?? 'error event')];
      default:
        return [];
    }
  }

  private itemAdded(key: string, item: JsonObject): StreamEvent[] {
    const type = stringField(item, 'type');
    if (type === 'reasoning') {
      const index = this.nextIndex++;
      this.blocks.set(key, { kind: 'thinking', index, summaries: 0 });
      return [{ type: 'thinking-start', index }];
    }
    if (type === 'function_call' || type === 'custom_tool_call') {
      const index = this.nextIndex++;
      this.toolCalls++;
      this.blocks.set(key, { kind: 'call', index, custom: type === 'custom_tool_call', streamed: false });
      return [{ type: 'tool-call-start', index, id: stringField(item, 'call_id') ?? '', name: flatName(stringField(item, 'namespace'), stringField(item, 'name') ?? '') }];
    }
    return [];
  }

  private partDelta(e: JsonObject, key: string, kind: 'text' | 'refusal'): StreamEvent[] {
    const block = this.blocks.get(`${key}/${numberField(e, 'content_index') ?? 0}`);
    const delta = stringField(e, 'delta');
    if (!block || !delta) return [];
    return kind === 'text' ? [{ type: 'text-delta', index: block.index, text: delta }] : [{ type: 'refusal-delta', index: block.index, text: delta }];
  }

  private itemDone(key: string, item: JsonObject): StreamEvent[] {
    const block = this.blocks.get(key);
    this.blocks.delete(key);
    if (stringField(item, 'type') === 'message') return this.closeParts(key);
    if (block?.kind === 'thinking') {
      const part = reasoningPart(item);
      if (part.type === 'redacted_thinking') return [{ type: 'redacted-thinking', index: block.index, data: part.data, protocol: part.protocol }];
      return [part.type === 'thinking' && part.signature ? { type: 'thinking-end', index: block.index, signature: part.signature } : { type: 'thinking-end', index: block.index }];
    }
    if (block?.kind === 'call') {
      const events: StreamEvent[] = [];
      const args = block.custom ? customArguments(stringField(item, 'input') ?? '') : stringField(item, 'arguments');
      if ((block.custom || !block.streamed) && args) events.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: args });
      events.push({ type: 'tool-call-end', index: block.index });
      return events;
    }
    return [];
  }

  /** Text parts an item left open (an incomplete message ends without `content_part.done`). */
  private closeParts(key: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const [partKey, block] of this.blocks) {
      if (!partKey.startsWith(`${key}/`)) continue;
      this.blocks.delete(partKey);
      if (block.kind === 'text') events.push({ type: 'text-end', index: block.index });
    }
    return events;
  }

  private finish(response: JsonObject): StreamEvent[] {
    this.done = true;
    const usage = mapOpenAIResponsesUsage(response['usage']);
    const finishReason = mapOpenAIResponsesStatus(response, this.toolCalls > 0);
    return usage ? [{ type: 'usage', usage }, { type: 'finish', finishReason, usage }] : [{ type: 'finish', finishReason }];
  }

  private fail(message: string): StreamEvent {
    this.done = true;
    return upstreamStreamFailure(message);
  }
}

export function startEvent(response: JsonObject): StreamEvent {
  return { type: 'start', id: stringField(response, 'id') ?? '', model: stringField(response, 'model') ?? '', created: numberField(response, 'created_at') ?? Math.floor(Date.now() / 1000) };
}

export function errorMessage(error: unknown): string {
  if (typeof error === 'string' && error !== '') return error;
  return (isRecord(error) && stringField(error, 'message')) || 'unknown error';
}
