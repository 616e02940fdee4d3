/**
 * ConverseStream events (AWS event-stream frames, already decoded) → canonical stream events.
 *
 * Bedrock numbers content blocks (`contentBlockIndex`); a tool call opens with
 * `contentBlockStart`, text and reasoning just begin with their first delta. Each Bedrock block
 * becomes one canonical block, numbered in the order they open. A reasoning block's signature
 * arrives as a delta of its own and is given on the block's end. `messageStop` carries the stop
 * reason and `metadata` the usage, so `finish` comes after `metadata` (or at the end, when a
 * stream stops without it). An exception frame ends the stream with an error, never a finish.
 */
import { GatewayError, type FinishReason, type StreamEvent, type Usage } from '@rosetta/canonical';
import { isRecord, numberField, recordField, stringField, upstreamStreamFailure, type AwsEventStreamMessage, type JsonObject } from '@rosetta/protocols/common';
import { bedrockResponseId } from './convert-bedrock-converse-response';
import { mapBedrockConverseStopReason } from './map-bedrock-converse-stop-reason';
import { mapBedrockConverseUsage } from './map-bedrock-converse-usage';

interface Block {
  kind: 'text' | 'thinking' | 'tool';
  index: number;
  signature?: string;
}

export class BedrockConverseStreamDecoder {
  private started = false;
  private nextIndex = 0;
  private readonly blocks = new Map<number, Block>();
  private finishReason?: FinishReason;
  private usage?: Usage;
  private done = false;

  push(chunk: unknown): StreamEvent[] {
    if (this.done || !isRecord(chunk)) return [];
    const message = chunk as unknown as AwsEventStreamMessage;
    if (message.messageType !== 'event') return [this.fail(streamException(message))];
    const payload = isRecord(message.payload) ? message.payload : {};
    const events = this.start();
    switch (message.eventType) {
      case 'contentBlockStart':
        events.push(...this.blockStart(numberField(payload, 'contentBlockIndex') ?? 0, recordField(payload, 'start') ?? {}));
        break;
      case 'contentBlockDelta':
        events.push(...this.blockDelta(numberField(payload, 'contentBlockIndex') ?? 0, recordField(payload, 'delta') ?? {}));
        break;
      case 'contentBlockStop':
        events.push(...this.blockStop(numberField(payload, 'contentBlockIndex') ?? 0));
        break;
      case 'messageStop':
        events.push(...this.closeAll());
        this.finishReason = mapBedrockConverseStopReason(stringField(payload, 'stopReason'));
        break;
      case 'metadata':
        this.usage = mapBedrockConverseUsage(payload['usage']) ?? this.usage;
        if (this.finishReason) events.push(this.finish());
        break;
      default:
        // messageStart (already answered by start()) and event types Bedrock may add later.
        break;
    }
    return events;
  }

  end(): StreamEvent[] {
    if (this.done) return [];
    if (!this.finishReason) {
      this.done = true;
      return [upstreamStreamFailure('the stream ended before messageStop')];
    }
    return [this.finish()];
  }

  private start(): StreamEvent[] {
    if (this.started) return [];
    this.started = true;
    return [{ type: 'start', id: bedrockResponseId(), model: '', created: Math.floor(Date.now() / 1000) }];
  }

  private open(bedrockIndex: number, kind: Block['kind']): Block {
    const block: Block = { kind, index: this.nextIndex++ };
    this.blocks.set(bedrockIndex, block);
    return block;
  }

  private blockStart(bedrockIndex: number, start: JsonObject): StreamEvent[] {
    const toolUse = recordField(start, 'toolUse');
    if (!toolUse || this.blocks.has(bedrockIndex)) return [];
    const block = this.open(bedrockIndex, 'tool');
    return [{ type: 'tool-call-start', index: block.index, id: stringField(toolUse, 'toolUseId') ?? '', name: stringField(toolUse, 'name') ?? '' }];
  }

  private blockDelta(bedrockIndex: number, delta: JsonObject): StreamEvent[] {
    const existing = this.blocks.get(bedrockIndex);
    if (typeof delta['text'] === 'string') {
      const events: StreamEvent[] = [];
      const block = existing ?? this.open(bedrockIndex, 'text');
      if (!existing) events.push({ type: 'text-start', index: block.index });
      if (delta['text'] !== '') events.push({ type: 'text-delta', index: block.index, text: delta['text'] });
      return events;
    }
    const toolUse = recordField(delta, 'toolUse');
    if (toolUse) {
      const input = stringField(toolUse, 'input');
      return existing?.kind === 'tool' && input ? [{ type: 'tool-call-delta', index: existing.index, argumentsDelta: input }] : [];
    }
    const reasoning = recordField(delta, 'reasoningContent');
    if (!reasoning) return [];
    const redacted = reasoning['redactedContent'];
    if (typeof redacted === 'string') {
      const block = existing ?? this.open(bedrockIndex, 'thinking');
      return [{ type: 'redacted-thinking', index: block.index, data: redacted, protocol: 'bedrock-converse' }];
    }
    const events: StreamEvent[] = [];
    const block = existing ?? this.open(bedrockIndex, 'thinking');
    if (!existing) events.push({ type: 'thinking-start', index: block.index });
    const text = stringField(reasoning, 'text');
    if (text) events.push({ type: 'thinking-delta', index: block.index, text });
    const signature = stringField(reasoning, 'signature');
    if (signature) block.signature = (block.signature ?? '') + signature;
    return events;
  }

  private blockStop(bedrockIndex: number): StreamEvent[] {
    const block = this.blocks.get(bedrockIndex);
    if (!block) return [];
    this.blocks.delete(bedrockIndex);
    return [closeBlock(block)];
  }

  private closeAll(): StreamEvent[] {
    const events = [...this.blocks.values()].map(closeBlock);
    this.blocks.clear();
    return events;
  }

  private finish(): StreamEvent {
    this.done = true;
    return { type: 'finish', finishReason: this.finishReason ?? { unified: 'stop' }, ...(this.usage ? { usage: this.usage } : {}) };
  }

  private fail(error: GatewayError): StreamEvent {
    this.done = true;
    return { type: 'error', error };
  }
}

function closeBlock(block: Block): StreamEvent {
  switch (block.kind) {
    case 'text':
      return { type: 'text-end', index: block.index };
    case 'tool':
      return { type: 'tool-call-end', index: block.index };
    case 'thinking':
      return { type: 'thinking-end', index: block.index, ...(block.signature ? { signature: { protocol: 'bedrock-converse', value: block.signature } } : {}) };
  }
}

/**
 * An exception Bedrock sent mid-stream, as the gateway's error: throttling and unavailability
 * with their HTTP statuses, anything else an upstream failure. Retryable: before the first event
 * reaches the client another attempt can still take over.
 */
function streamException(message: AwsEventStreamMessage): GatewayError {
  const type = message.exceptionType ?? message.errorCode ?? 'exception';
  const payload = isRecord(message.payload) ? message.payload : {};
  const said = stringField(payload, 'message') ?? stringField(payload, 'Message') ?? (typeof message.payload === 'string' ? message.payload : 'the stream was interrupted');
  const status = /throttling/i.test(type) ? 429 : /serviceunavailable/i.test(type) ? 503 : 502;
  return new GatewayError('upstream_error', `Upstream service error: ${type}: ${said}`, { status, retryable: true });
}
