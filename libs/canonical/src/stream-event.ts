import type { ProviderSignature } from './content-part';
import type { FinishReason } from './finish-reason';
import type { GatewayError } from './gateway-error';
import type { UpstreamProtocolId } from './protocol';
import type { Usage } from './usage';

/**
 * A streamed reply as a sequence of typed events. Blocks (text, thinking, tool call) open with a
 * `*-start`, carry deltas, and close with a `*-end`; `index` is the block's position in the
 * assistant message, assigned in order from 0. One `finish` event ends a successful stream.
 */
export type StreamEvent =
  /**
   * `usage`: what the upstream reported as it started (its prompt count, output 0), when it reports
   * one then (Anthropic's message_start, Gemini's first chunk); the final count comes with `finish`.
   */
  | { type: 'start'; id: string; model: string; created: number; usage?: Usage }
  | { type: 'text-start'; index: number }
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'text-end'; index: number; signature?: ProviderSignature }
  | { type: 'thinking-start'; index: number }
  | { type: 'thinking-delta'; index: number; text: string }
  | { type: 'thinking-end'; index: number; signature?: ProviderSignature }
  | { type: 'redacted-thinking'; index: number; data: string; protocol: UpstreamProtocolId }
  | { type: 'refusal-delta'; index: number; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string; signature?: ProviderSignature }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; finishReason: FinishReason; usage?: Usage }
  | { type: 'error'; error: GatewayError }
  | WireFrameEvent;

/**
 * One frame of a same-protocol stream, forwarded as the upstream wrote it (docs/decisions/0017).
 * Only a client of the upstream's own wire format is sent these; the other events of such a
 * stream (`start`, `usage`, `finish`, `error`) are a light scan of the frames, for the gateway.
 */
export interface WireFrameEvent {
  type: 'wire';
  /** The frame as SSE text, blank line included. */
  text: string;
  /** Its `data:` text as it came, for a framing that writes the payload in another framing (a JSON array). */
  payload: string;
  /** Its parsed payload, for a framing that has to change a field (the served model, the cost). */
  data: unknown;
  /** It carries output: the first such frame ends the hold that still allows a fallback. */
  content: boolean;
  /** Characters of output it carries (text, thinking, tool arguments): a cut stream is charged by them. */
  outputChars: number;
}

export type StreamEventType = StreamEvent['type'];
