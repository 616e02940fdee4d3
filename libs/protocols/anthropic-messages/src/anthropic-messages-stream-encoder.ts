/**
 * Canonical stream events → dialect-B SSE text. The output must satisfy the official SDK: every
 * event has an `event:` line (the SDK drops events without one), `message_start` comes first,
 * blocks are numbered 0, 1, 2… and never interleave, and a turn with tool calls ends with
 * `tool_use`, or agents stop without running them.
 */
import type { GatewayError, StreamEvent, Usage } from '@rosetta/canonical';
import { wrapSignature } from '@rosetta/protocols/common';
import { carriedCallSignature } from './anthropic-messages-call-signature';
import { AnthropicMessagesBlockSequencer, type WireBlockStart, type WireEvent } from './anthropic-messages-block-sequencer';
import { toAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason';
import { toAnthropicMessagesUsage } from './map-anthropic-messages-usage';

export interface AnthropicMessagesStreamEncoderOptions {
  /** The message id the client sees (`msg_…`). */
  id: string;
  /** The public model id the client sees. */
  model: string;
}

const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

const TEXT: WireBlockStart = { type: 'text', text: '' };
const THINKING: WireBlockStart = { type: 'thinking', thinking: '', signature: '' };

export class AnthropicMessagesStreamEncoder {
  private started = false;
  private ended = false;
  private usage?: Usage;
  private startUsage?: Usage;
  private readonly blocks = new AnthropicMessagesBlockSequencer();

  constructor(private readonly options: AnthropicMessagesStreamEncoderOptions) {}

  encode(event: StreamEvent): string {
    if (this.ended) return '';
    if (event.type === 'error') {
      this.ended = true;
      return frame(errorEvent(event.error));
    }
    if (event.type === 'usage') {
      this.usage = event.usage;
      return '';
    }
    return [...this.messageStart(event), ...this.translate(event)].map(frame).join('');
  }

  private translate(event: Exclude<StreamEvent, { type: 'error' | 'usage' }>): WireEvent[] {
    const { blocks } = this;
    switch (event.type) {
      case 'start':
      case 'wire':
        // A forwarded frame is written only by the pass-through framing.
        return [];
      case 'text-start':
        return blocks.start(event.index, TEXT);
      case 'text-delta':
      case 'refusal-delta':
        return event.text === '' ? [] : blocks.delta(event.index, { type: 'text_delta', text: event.text }, TEXT);
      case 'thinking-start':
        return blocks.start(event.index, THINKING);
      case 'thinking-delta':
        return event.text === '' ? [] : blocks.delta(event.index, { type: 'thinking_delta', thinking: event.text }, THINKING);
      case 'thinking-end':
        return blocks.end(event.index, event.signature && wrapSignature(event.signature, 'anthropic'));
      case 'redacted-thinking':
        if (event.protocol !== 'anthropic') return [];
        return [...blocks.start(event.index, { type: 'redacted_thinking', data: event.data }), ...blocks.end(event.index)];
      case 'tool-call-start': {
        const toolUse: WireBlockStart = { type: 'tool_use', id: event.id, name: event.name, input: {} };
        return [...this.callSignatureCarrier(event), ...blocks.start(event.index, toolUse)];
      }
      case 'tool-call-delta':
        return event.argumentsDelta === '' ? [] : blocks.delta(event.index, { type: 'input_json_delta', partial_json: event.argumentsDelta });
      case 'text-end':
      case 'tool-call-end':
        return blocks.end(event.index);
      case 'finish':
        return this.finish(event);
    }
  }

  /** A foreign call signature goes first, whole, in an empty thinking block of its own. */
  private callSignatureCarrier(event: Extract<StreamEvent, { type: 'tool-call-start' }>): WireEvent[] {
    const signature = carriedCallSignature(event.signature);
    if (signature === undefined) return [];
    return this.blocks.whole(event.index, THINKING, [{ type: 'signature_delta', signature }]);
  }

  /**
   * Sent before anything else, whatever the first event is: the SDK refuses events before it. Its
   * input count is the upstream's when the upstream gave one as it started (Anthropic, Gemini),
   * else 0 — never an estimate the final count would contradict; the final message_delta carries
   * the upstream's counts, which the SDK's accumulated message takes (docs/decisions/0021).
   */
  private messageStart(first: StreamEvent): WireEvent[] {
    if (this.started) return [];
    this.started = true;
    this.startUsage = first.type === 'start' ? first.usage : undefined;
    const message = {
      id: this.options.id,
      type: 'message',
      role: 'assistant',
      model: this.options.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: toAnthropicMessagesUsage(this.startUsage ?? NO_USAGE),
    };
    return [
      { event: 'message_start', data: { type: 'message_start', message } },
      { event: 'ping', data: { type: 'ping' } },
    ];
  }

  private finish(event: Extract<StreamEvent, { type: 'finish' }>): WireEvent[] {
    this.ended = true;
    const closing = this.blocks.finish();
    const stopReason = toAnthropicMessagesStopReason(event.finishReason, this.blocks.sentToolUse);
    const stopSequence = stopReason === 'stop_sequence' ? (event.finishReason.stopSequence ?? null) : null;
    const usage = event.usage ?? this.usage ?? this.startUsage ?? NO_USAGE;
    return [
      ...closing,
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: stopSequence }, usage: toAnthropicMessagesUsage(usage) },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
  }
}

function frame({ event, data }: WireEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The in-stream error the SDK turns into an APIError of that type; nothing follows it. */
export function anthropicMessagesStreamErrorFrame(error: GatewayError): string {
  return frame(errorEvent(error));
}

function errorEvent(error: GatewayError): WireEvent {
  return { event: 'error', data: { type: 'error', error: { type: error.type, message: error.message } } };
}
