/**
 * Upstream Anthropic SSE events → canonical stream events, one event at a time.
 *
 * Anthropic already streams typed blocks, so block indexes carry over unchanged. Input usage comes
 * in `message_start` and the rest, cumulatively, in `message_delta`; the two are merged so the one
 * `finish` (at `message_stop`) carries the whole count.
 */
import { GatewayError, type FinishReason, type StreamEvent, type Usage } from '@rosetta/canonical';
import { isNumber, isRecord, numberField, recordField, stringField, type JsonObject } from '@rosetta/protocols/common';
import { mapAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason';
import { mapAnthropicMessagesUsage } from './map-anthropic-messages-usage';

type BlockKind = 'text' | 'thinking' | 'tool_use' | 'other';

interface BlockState {
  kind: BlockKind;
  signature?: string;
  /** A tool's input given whole at the start, sent only if no input_json_delta follows. */
  initialInput?: string;
  sawInputDelta?: boolean;
}

export class AnthropicMessagesStreamDecoder {
  private started = false;
  private readonly blocks = new Map<number, BlockState>();
  private finishReason?: FinishReason;
  /** Raw usage counters, overlaid as message_delta events update them. */
  private rawUsage: JsonObject = {};
  /** Set once `finish` or `error` has been emitted: the stream is over for the consumer. */
  private done = false;

  push(event: { event?: string; data: unknown }): StreamEvent[] {
    if (this.done || !isRecord(event) || !isRecord(event.data)) return [];
    const data = event.data;
    const type = stringField(data, 'type') ?? event.event;
    if (type === 'error') return [this.fail(recordField(data, 'error') ?? data)];
    if (type === 'message_start') return this.start(recordField(data, 'message') ?? {});
    const handled = this.handle(type, data);
    if (handled === undefined) return [];
    return [...this.start({}), ...handled];
  }

  end(): StreamEvent[] {
    if (this.done) return [];
    return [this.fail({ message: 'stream ended before message_stop' })];
  }

  /** Undefined for ping and event types Anthropic may add later, which clients must ignore. */
  private handle(type: string | undefined, data: JsonObject): StreamEvent[] | undefined {
    const index = numberField(data, 'index') ?? 0;
    switch (type) {
      case 'content_block_start':
        return this.blockStart(index, recordField(data, 'content_block') ?? {});
      case 'content_block_delta':
        return this.blockDelta(index, recordField(data, 'delta') ?? {});
      case 'content_block_stop':
        return this.blockStop(index);
      case 'message_delta':
        return this.messageDelta(data);
      case 'message_stop':
        return this.finish();
      default:
        return undefined;
    }
  }

  private start(message: JsonObject): StreamEvent[] {
    if (this.started) return [];
    this.started = true;
    this.overlayUsage(message['usage']);
    const id = stringField(message, 'id') ?? '';
    const model = stringField(message, 'model') ?? '';
    const usage = this.usage();
    return [{ type: 'start', id, model, created: Math.floor(Date.now() / 1000), ...(usage ? { usage: startUsage(usage) } : {}) }];
  }

  private blockStart(index: number, block: JsonObject): StreamEvent[] {
    switch (stringField(block, 'type')) {
      case 'text':
        this.blocks.set(index, { kind: 'text' });
        return [{ type: 'text-start', index }, ...textDelta('text-delta', index, stringField(block, 'text'))];
      case 'thinking':
        this.blocks.set(index, { kind: 'thinking', signature: stringField(block, 'signature') });
        return [{ type: 'thinking-start', index }, ...textDelta('thinking-delta', index, stringField(block, 'thinking'))];
      case 'tool_use': {
        const input = block['input'];
        const initialInput = isRecord(input) && Object.keys(input).length > 0 ? JSON.stringify(input) : undefined;
        this.blocks.set(index, { kind: 'tool_use', initialInput });
        return [{ type: 'tool-call-start', index, id: stringField(block, 'id') ?? '', name: stringField(block, 'name') ?? '' }];
      }
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'other' });
        return [{ type: 'redacted-thinking', index, data: stringField(block, 'data') ?? '', protocol: 'anthropic' }];
      default:
        // Server-tool blocks have no canonical form; their deltas and stop are ignored too.
        this.blocks.set(index, { kind: 'other' });
        return [];
    }
  }

  private blockDelta(index: number, delta: JsonObject): StreamEvent[] {
    const block = this.blocks.get(index);
    switch (stringField(delta, 'type')) {
      case 'text_delta':
        return block?.kind === 'text' ? textDelta('text-delta', index, stringField(delta, 'text')) : [];
      case 'thinking_delta':
        return block?.kind === 'thinking' ? textDelta('thinking-delta', index, stringField(delta, 'thinking')) : [];
      case 'signature_delta':
        if (block?.kind === 'thinking') block.signature = stringField(delta, 'signature') ?? block.signature;
        return [];
      case 'input_json_delta': {
        if (block?.kind !== 'tool_use') return [];
        block.sawInputDelta = true;
        const argumentsDelta = stringField(delta, 'partial_json') ?? '';
        return argumentsDelta === '' ? [] : [{ type: 'tool-call-delta', index, argumentsDelta }];
      }
      default:
        // citations_delta and later additions.
        return [];
    }
  }

  private blockStop(index: number): StreamEvent[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    return block ? closeBlock(index, block) : [];
  }

  private messageDelta(data: JsonObject): StreamEvent[] {
    const delta = recordField(data, 'delta') ?? {};
    const stopReason = stringField(delta, 'stop_reason');
    if (stopReason) this.finishReason = mapAnthropicMessagesStopReason(stopReason, stringField(delta, 'stop_sequence'));
    this.overlayUsage(data['usage']);
    const usage = this.usage();
    return usage ? [{ type: 'usage', usage }] : [];
  }

  /** Blocks left open by a sloppy upstream are closed first, so the consumer sees every block end. */
  private finish(): StreamEvent[] {
    const closing = [...this.blocks.entries()].sort(([a], [b]) => a - b).flatMap(([index, block]) => closeBlock(index, block));
    this.blocks.clear();
    this.done = true;
    const finishReason = this.finishReason ?? mapAnthropicMessagesStopReason(undefined);
    const usage = this.usage();
    return [...closing, usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason }];
  }

  /** message_delta counts are cumulative and name only what applies: present values replace. */
  private overlayUsage(raw: unknown): void {
    if (!isRecord(raw)) return;
    for (const [key, value] of Object.entries(raw)) {
      if (isNumber(value) || isRecord(value)) this.rawUsage[key] = value;
    }
  }

  private usage(): Usage | undefined {
    return mapAnthropicMessagesUsage(this.rawUsage);
  }

  private fail(error: JsonObject): StreamEvent {
    this.done = true;
    return { type: 'error', error: anthropicStreamError(error) };
  }
}

/** An upstream's in-stream `error` event (or a stream cut short) as the gateway's error. */
export function anthropicStreamError(error: JsonObject): GatewayError {
  const type = stringField(error, 'type');
  const message = stringField(error, 'message') || 'unknown error';
  return new GatewayError('upstream_error', `Upstream service error: ${message}`, {
    status: type === 'overloaded_error' ? 503 : 502,
    // Before the first event reaches the client another attempt can still take over.
    retryable: true,
  });
}

function textDelta(type: 'text-delta' | 'thinking-delta', index: number, text: string | undefined): StreamEvent[] {
  return text ? [{ type, index, text }] : [];
}

function closeBlock(index: number, block: BlockState): StreamEvent[] {
  switch (block.kind) {
    case 'text':
      return [{ type: 'text-end', index }];
    case 'thinking':
      return [block.signature ? { type: 'thinking-end', index, signature: { protocol: 'anthropic', value: block.signature } } : { type: 'thinking-end', index }];
    case 'tool_use': {
      const initial: StreamEvent[] =
        block.initialInput && !block.sawInputDelta ? [{ type: 'tool-call-delta', index, argumentsDelta: block.initialInput }] : [];
      return [...initial, { type: 'tool-call-end', index }];
    }
    case 'other':
      return [];
  }
}

/** The prompt side of the usage a stream starts with: output is counted at the end. */
function startUsage({ reasoningTokens: _reasoning, ...usage }: Usage): Usage {
  return { ...usage, outputTokens: 0 };
}
