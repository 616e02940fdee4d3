import type { Message } from './message';
import type { DialectId } from './protocol';
import type { RoutingPreferences } from './routing-preferences';
import type { JsonSchema, ToolChoice, ToolDefinition } from './tool';

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name?: string; description?: string; schema: JsonSchema; strict?: boolean };

export interface ThinkingConfig {
  enabled: boolean;
  /** Token budget (Anthropic budget_tokens, Gemini thinkingBudget). */
  budgetTokens?: number;
  /** Effort level (OpenAI reasoning_effort, Gemini thinkingLevel, Anthropic output_config.effort). */
  effort?: string;
  /** Whether the client wants thought text back (Gemini includeThoughts). */
  includeThoughts?: boolean;
}

/**
 * The body exactly as the client sent it, kept so a same-protocol upstream can receive fields
 * Rosetta does not model (the fast path of ARCHITECTURE §1).
 */
export interface RequestPassthrough {
  protocol: DialectId;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface CanonicalRequest {
  /** The requested public model id (`rosetta/...`). */
  model: string;
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  candidateCount?: number;
  responseFormat?: ResponseFormat;
  thinking?: ThinkingConfig;
  /**
   * Who the request is for (OpenAI `user` / `safety_identifier`, Anthropic `metadata.user_id`,
   * Gemini `labels.user`): forwarded for the provider's abuse tracking, and the ledger's end user
   * unless the `x-rosetta-end-user` header names another (decision 0033).
   */
  user?: string;
  /** The request's labels from the body (`metadata.tags`), for the ledger; never sent upstream. */
  tags?: string[];
  /**
   * Which prompt cache the upstream should use (OpenAI `prompt_cache_key`): the client's own, or,
   * with `prompt_cache: auto`, the session of session affinity.
   */
  promptCacheKey?: string;
  /**
   * `prompt_cache: auto` on the key or plan, and a prompt long enough to cache: a Claude upstream
   * gets breakpoints after the tools and system and after the conversation so far, unless the
   * client placed its own.
   */
  autoPromptCache?: boolean;
  stream: boolean;
  routing: RoutingPreferences;
  passthrough?: RequestPassthrough;
}
