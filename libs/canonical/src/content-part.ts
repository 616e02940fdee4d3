/**
 * Content parts: the provider-neutral pieces of a message. Unions keyed on `type`.
 * Anything a provider attaches that must round-trip untouched (signatures, cache hints) is kept
 * beside the part together with the protocol that produced it, so an encoder can tell whether it
 * is allowed to send it back.
 */
import type { UpstreamProtocolId } from './protocol';

/** Where a piece of media lives: inline bytes or a URL the upstream fetches. */
export type MediaSource =
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'url'; url: string; mediaType?: string }
  | { kind: 'file'; fileId: string; mediaType?: string }
  | { kind: 'text'; mediaType: string; data: string };

/** A provider-specific cache hint (Anthropic `cache_control`, OpenAI `prompt_cache_breakpoint`). */
export interface CacheHint {
  type: string;
  ttl?: string;
}

export interface TextPart {
  type: 'text';
  text: string;
  cache?: CacheHint;
  /** Gemini may sign a text part; kept only for the protocol that produced it. */
  signature?: ProviderSignature;
}

export interface ImagePart {
  type: 'image';
  source: MediaSource;
  /** OpenAI `image_url.detail`. */
  detail?: string;
  cache?: CacheHint;
}

export interface DocumentPart {
  type: 'document';
  source: MediaSource;
  title?: string;
  filename?: string;
  context?: string;
  cache?: CacheHint;
}

export interface AudioPart {
  type: 'audio';
  data: string;
  format: string;
}

/** An opaque signature bound to the protocol (and so the provider family) that issued it. */
export interface ProviderSignature {
  protocol: UpstreamProtocolId;
  value: string;
}

export interface ToolCallPart {
  type: 'tool_call';
  /** Stable across turns. Synthesised (and remembered by the client) when the upstream has none. */
  id: string;
  name: string;
  /** The arguments as JSON text, exactly as produced: never re-serialised on the way through. */
  arguments: string;
  signature?: ProviderSignature;
}

export type ToolResultContent = TextPart | ImagePart | DocumentPart;

export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  /** Known when the dialect carries it (Gemini, Anthropic via history); recovered otherwise. */
  toolName?: string;
  content: ToolResultContent[];
  isError?: boolean;
  cache?: CacheHint;
}

export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: ProviderSignature;
}

/** Anthropic `redacted_thinking`: encrypted reasoning that must go back byte for byte. */
export interface RedactedThinkingPart {
  type: 'redacted_thinking';
  data: string;
  protocol: UpstreamProtocolId;
}

export interface RefusalPart {
  type: 'refusal';
  text: string;
}

export type UserContentPart = TextPart | ImagePart | DocumentPart | AudioPart;
export type AssistantContentPart = TextPart | ThinkingPart | RedactedThinkingPart | ToolCallPart | RefusalPart;
export type ContentPart = UserContentPart | AssistantContentPart | ToolResultPart;
