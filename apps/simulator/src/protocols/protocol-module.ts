import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonBody } from '../http-io';
import type { PromptCacheQuery } from '../prompt-cache/prompt-cache-types';
import type { NeutralRequest, ReplyPlan } from '../reply-plan';

export type SimProtocol = 'openai' | 'anthropic' | 'gemini' | 'openai-responses' | CloudProtocol;

/** A public API behind a cloud platform's paths and credentials. */
export type CloudProtocol = 'vertex-gemini' | 'vertex-anthropic' | 'azure-openai' | 'bedrock-converse' | 'bedrock-anthropic';

/** Server-wide defaults; a plan's own latency and pacing override them. */
export interface SimSettings {
  /** Answer OpenAI-protocol calls without an API key, as a local server (Ollama, vLLM) does. */
  keyless: boolean;
  latencyMs: number;
  /** 0 streams as fast as the socket accepts. */
  tokensPerSecond: number;
  /** Tokens per content chunk. */
  chunkTokens: number;
}

/** One protocol request, already read and recorded by the server. */
export interface SimExchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly rawBody: string;
  readonly body: JsonBody;
  /** Aborted when the client disconnects; every wait and write must observe it. */
  readonly signal: AbortSignal;
  readonly settings: SimSettings;
  readonly requestId: string;
  /**
   * Whose prompt cache the request uses: a hash of the caller's credential, or what a cloud
   * surface sets instead (Vertex caches per project).
   */
  readonly cacheScope: string;
  /**
   * Decides the protocol-neutral reply (scripts, directive, defaults, limits). With `cache`, a
   * reply also reads and writes the simulated prompt cache and reports it in its usage.
   */
  plan(request: NeutralRequest, cache?: PromptCacheQuery): ReplyPlan;
}

/**
 * One wire protocol. A module turns its wire request into a NeutralRequest, asks the exchange
 * for a plan and renders that plan (and its errors) in its own format. To add a protocol, copy
 * `openai.ts` and its two helpers and register the module in `simulator.ts`.
 */
export interface ProtocolModule {
  readonly protocol: SimProtocol;
  handles(method: string, pathname: string): boolean;
  handle(exchange: SimExchange): Promise<void>;
}
