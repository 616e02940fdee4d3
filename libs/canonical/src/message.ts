import type { AssistantContentPart, TextPart, ToolResultPart, UserContentPart } from './content-part';

/**
 * System text may appear anywhere in an OpenAI conversation; Anthropic and Gemini take it only at
 * the top. Keeping it in the message list preserves its position for encoders that can use it.
 */
export interface SystemMessage {
  role: 'system';
  content: TextPart[];
  /** OpenAI `developer` role rather than `system`. */
  developer?: boolean;
  name?: string;
}

export interface UserMessage {
  role: 'user';
  content: UserContentPart[];
  name?: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentPart[];
  name?: string;
}

/** Results of tool calls. One message may carry several (parallel calls). */
export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
export type Role = Message['role'];
