import type { CacheHint } from './content-part';

export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  /** The name the model calls; for a namespaced tool, `<namespace>__<name>` (see `namespace`). */
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters?: JsonSchema;
  strict?: boolean;
  /**
   * A free-form tool (OpenAI Responses `custom`): the model writes raw text, optionally held to a
   * grammar (`format`). Protocols without such tools see a function taking one string, `input`,
   * and the call's arguments are `{"input": "…"}` everywhere in the canonical model.
   */
  custom?: { format?: JsonSchema };
  /**
   * The group a tool belongs to (OpenAI Responses `namespace` tools). Protocols without groups see
   * the flattened `name`; the Responses codecs split it back into namespace and name.
   */
  namespace?: { name: string; description?: string };
  /** A prompt-cache breakpoint after this tool (Anthropic `cache_control`, Bedrock `cachePoint`). */
  cache?: CacheHint;
}

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string };
