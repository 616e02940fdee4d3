/**
 * A same-protocol stream to a dialect-B client (docs/decisions/0017): the upstream's events are
 * written byte for byte as they came, except `message_start`, whose message gets the gateway's id
 * and the served model (that one frame is serialised again). The gateway's own errors are written
 * as the full encoder writes them.
 */
import type { StreamEvent } from '@rosetta/canonical';
import { isRecord, type StreamFraming } from '@rosetta/protocols/common';
import { anthropicMessagesStreamErrorFrame } from './anthropic-messages-stream-encoder';

export interface AnthropicMessagesPassThroughOptions {
  /** The message id the client sees (`msg_…`). */
  id: string;
  /** The public model id the client sees. */
  model: string;
}

export class AnthropicMessagesPassThroughFraming {
  private ended = false;

  constructor(private readonly options: AnthropicMessagesPassThroughOptions) {}

  encode(event: StreamEvent): string {
    if (this.ended) return '';
    switch (event.type) {
      case 'wire':
        return this.forward(event.text, event.data);
      case 'finish':
        this.ended = true;
        return '';
      case 'error':
        this.ended = true;
        return anthropicMessagesStreamErrorFrame(event.error);
      default:
        return '';
    }
  }

  private forward(text: string, data: unknown): string {
    if (!isRecord(data) || data['type'] !== 'message_start' || !isRecord(data['message'])) return text;
    const message = { ...data['message'], id: this.options.id, model: this.options.model };
    return `event: message_start\ndata: ${JSON.stringify({ ...data, message })}\n\n`;
  }
}

export function anthropicMessagesPassThroughFraming(options: AnthropicMessagesPassThroughOptions, contentType: string): StreamFraming {
  const framing = new AnthropicMessagesPassThroughFraming(options);
  return { contentType, encode: (event) => framing.encode(event) };
}
