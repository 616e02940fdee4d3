/**
 * Same-protocol stream pass-through (docs/decisions/0017): when a client speaks the upstream's
 * own wire format, the upstream's frames are forwarded as they came, and the gateway reads only
 * what it needs of each (usage, the finish, errors, whether output began) by a light scan.
 */
import { GatewayError, type StreamEvent, type WireFrameEvent } from '@rosetta/canonical';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One SSE event as the upstream sent it: its `event:` name and its `data:` text. */
export interface SseFrame {
  event?: string;
  data: string;
  /** Read from what was left when the connection closed: a half-written payload there is dropped. */
  final: boolean;
}

/** A fresh scanner reads one stream's frames into the wire frames to forward and the events the gateway reads. */
export interface StreamScanner {
  push(frame: SseFrame): StreamEvent[];
  /** The upstream closed: a finish it announced, or an error when it ended too soon. */
  end(): StreamEvent[];
}

const NO_FRAMES: readonly SseFrame[] = [];

/**
 * SSE framing behind a small synchronous face: bytes or text in, the events completed by them
 * out. Framing is eventsource-parser's job; events without data (comments, keep-alives) are not
 * frames. One per stream.
 */
export class SseFramer {
  private readonly decoder = new TextDecoder();
  private readonly pending: EventSourceMessage[] = [];
  private readonly parser = createParser({ onEvent: (event) => this.pending.push(event) });

  feed(piece: Uint8Array | string): readonly SseFrame[] {
    this.parser.feed(typeof piece === 'string' ? piece : this.decoder.decode(piece, { stream: true }));
    return this.take(false);
  }

  /** The connection closed: a last event without its blank line still counts. */
  finish(): readonly SseFrame[] {
    this.parser.feed(`${this.decoder.decode()}\n\n`);
    return this.take(true);
  }

  private take(final: boolean): readonly SseFrame[] {
    // Most reads complete no event, or one: nothing is allocated for the first.
    if (this.pending.length === 0) return NO_FRAMES;
    const frames: SseFrame[] = [];
    for (const message of this.pending) {
      if (message.data === '') continue;
      frames.push(message.event === undefined ? { data: message.data, final } : { event: message.event, data: message.data, final });
    }
    this.pending.length = 0;
    return frames;
  }
}

/** Upstream SSE bytes → frames, yielded as each event completes (never buffering the whole stream). */
export async function* parseSseFrames(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseFrame> {
  const framer = new SseFramer();
  for await (const piece of source) for (const frame of framer.feed(piece)) yield frame;
  for (const frame of framer.finish()) yield frame;
}

/**
 * The frame's payload parsed; a malformed one fails the stream (retryable before its first
 * byte), except one cut off by the connection closing, which is dropped (undefined): the scanner
 * then reports the stream as cut, which is the cause.
 */
export function parseFrameData(frame: SseFrame): unknown {
  try {
    return JSON.parse(frame.data);
  } catch {
    if (frame.final) return undefined;
    throw new GatewayError('upstream_error', 'Upstream service error: malformed stream event', { status: 502, retryable: true });
  }
}

/**
 * The upstream stream failed: an error event it sent, a cut, a malformed frame. Retryable: before
 * the first event reaches the client another attempt can still take over. Shared by the decoders
 * and the scanners, which must fail a stream the same way.
 */
export function upstreamStreamFailure(message: string): StreamEvent {
  return { type: 'error', error: new GatewayError('upstream_error', `Upstream service error: ${message}`, { status: 502, retryable: true }) };
}

/** The SSE text of a frame, as a client of the same wire format reads it. */
export function sseText(event: string | undefined, data: string): string {
  const lines = data.includes('\n') ? data.split('\n').map((line) => `data: ${line}`).join('\n') : `data: ${data}`;
  return event === undefined ? `${lines}\n\n` : `event: ${event}\n${lines}\n\n`;
}

/** A frame to forward: `text` as it came, `data` its parsed payload. */
export function wireFrame(frame: SseFrame, data: unknown, outputChars: number, content = outputChars > 0): WireFrameEvent {
  return { type: 'wire', text: sseText(frame.event, frame.data), payload: frame.data, data, content, outputChars };
}
