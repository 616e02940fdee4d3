/**
 * ConverseStream events (AWS event-stream frames, already parsed) → canonical stream events.
 *
 * Bedrock numbers content blocks (`contentBlockIndex`); a tool call opens with
 * `contentBlockStart`, text and reasoning simply begin with their first delta. Each Bedrock block
 * becomes one canonical block, numbered in the order blocks open, whatever Bedrock's numbers are.
 * A reasoning block's signature arrives as a delta of its own and is given on the block's end;
 * redacted reasoning is one canonical event, given when its block stops. `messageStop` carries the
 * stop reason and `metadata` the usage, so the one `finish` comes once both are in (or at the end,
 * when a stream stops without metadata). An exception frame ends the stream with an error, never a
 * finish.
 */
import type { FinishReason, StreamEvent, Usage } from '@rosetta/canonical';
import { isRecord, numberField, recordField, stringField, upstreamStreamFailure, type AwsEventStreamMessage, type JsonObject } from '@rosetta/protocols/common';
import { bedrockConverseStreamError } from './bedrock-converse-error';
import { bedrockResponseId } from './convert-bedrock-converse-response';
import { mapBedrockConverseStopReason } from './map-bedrock-converse-stop-reason';
import { mapBedrockConverseUsage } from './map-bedrock-converse-usage';

interface Block {
  kind: 'text' | 'thinking' | 'redacted' | 'tool';
  /** The canonical index. */
  index: number;
  /** Thinking: the signature, as its deltas came. */
  signature?: string;
  /** Redacted reasoning: its bytes, as its deltas came. */
  redacted?: Buffer[];
}

export class BedrockConverseStreamDecoder {
  private started = false;
  private nextIndex = 0;
  /** Open blocks by Bedrock's contentBlockIndex. */
  private readonly blocks = new Map<number, Block>();
  private finishReason?: FinishReason;
  private metadataSeen = false;
  private usage?: Usage;
  /** Set once `finish` or `error` has been emitted: the stream is over for the consumer. */
  private done = false;

  push(chunk: unknown): StreamEvent[] {
    const message = asMessage(chunk);
    if (this.done || !message) return [];
    if (message.messageType !== 'event') {
      this.done = true;
      return [{ type: 'error', error: bedrockConverseStreamError(message) }];
    }
    const payload = isRecord(message.payload) ? message.payload : {};
    const bedrockIndex = numberField(payload, 'contentBlockIndex') ?? 0;
    const events = this.start();
    switch (message.eventType) {
      case 'contentBlockStart':
        events.push(...this.blockStart(bedrockIndex, recordField(payload, 'start') ?? {}));
        break;
      case 'contentBlockDelta':
        events.push(...this.blockDelta(bedrockIndex, recordField(payload, 'delta') ?? {}));
        break;
      case 'contentBlockStop':
        events.push(...this.blockStop(bedrockIndex));
        break;
      case 'messageStop':
        events.push(...this.closeAll());
        this.finishReason = mapBedrockConverseStopReason(stringField(payload, 'stopReason'));
        if (this.metadataSeen) events.push(this.finish());
        break;
      case 'metadata':
        this.metadataSeen = true;
        this.usage = mapBedrockConverseUsage(payload['usage']) ?? this.usage;
        if (this.finishReason) events.push(this.finish());
        break;
      default:
        // messageStart (answered by start()) and event types Bedrock may add later.
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
    // No id or model on the wire: the id is made here, the executor writes the served model.
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
    const text = stringField(delta, 'text');
    if (text !== undefined) {
      if (existing && existing.kind !== 'text') return [];
      const block = existing ?? this.open(bedrockIndex, 'text');
      const events: StreamEvent[] = existing ? [] : [{ type: 'text-start', index: block.index }];
      if (text !== '') events.push({ type: 'text-delta', index: block.index, text });
      return events;
    }
    const toolUse = recordField(delta, 'toolUse');
    if (toolUse) {
      const input = stringField(toolUse, 'input');
      return existing?.kind === 'tool' && input ? [{ type: 'tool-call-delta', index: existing.index, argumentsDelta: input }] : [];
    }
    const reasoning = recordField(delta, 'reasoningContent');
    return reasoning ? this.reasoningDelta(bedrockIndex, existing, reasoning) : [];
  }

  private reasoningDelta(bedrockIndex: number, existing: Block | undefined, reasoning: JsonObject): StreamEvent[] {
    const redacted = stringField(reasoning, 'redactedContent');
    if (redacted !== undefined) {
      if (existing && existing.kind !== 'redacted') return [];
      const block = existing ?? this.open(bedrockIndex, 'redacted');
      (block.redacted ??= []).push(Buffer.from(redacted, 'base64'));
      return [];
    }
    if (existing && existing.kind !== 'thinking') return [];
    const block = existing ?? this.open(bedrockIndex, 'thinking');
    const events: StreamEvent[] = existing ? [] : [{ type: 'thinking-start', index: block.index }];
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

  /** Blocks a sloppy upstream left open are closed, in the order they opened, so every block ends. */
  private closeAll(): StreamEvent[] {
    const events = [...this.blocks.values()].map(closeBlock);
    this.blocks.clear();
    return events;
  }

  private finish(): StreamEvent {
    this.done = true;
    return { type: 'finish', finishReason: this.finishReason ?? { unified: 'stop' }, ...(this.usage ? { usage: this.usage } : {}) };
  }
}

/** A parsed frame, or undefined for anything else. */
function asMessage(chunk: unknown): AwsEventStreamMessage | undefined {
  if (!isRecord(chunk)) return undefined;
  const messageType = stringField(chunk, 'messageType');
  if (messageType === undefined) return undefined;
  const field = (key: string) => {
    const value = stringField(chunk, key);
    return value === undefined ? {} : { [key]: value };
  };
  return { messageType, ...field('eventType'), ...field('exceptionType'), ...field('errorCode'), payload: chunk['payload'] };
}

function closeBlock(block: Block): StreamEvent {
  switch (block.kind) {
    case 'text':
      return { type: 'text-end', index: block.index };
    case 'tool':
      return { type: 'tool-call-end', index: block.index };
    case 'redacted':
      return { type: 'redacted-thinking', index: block.index, data: Buffer.concat(block.redacted ?? []).toString('base64'), protocol: 'bedrock-converse' };
    case 'thinking':
      return { type: 'thinking-end', index: block.index, ...(block.signature ? { signature: { protocol: 'bedrock-converse', value: block.signature } } : {}) };
  }
}
