import type { CanonicalRequest, CanonicalResponse, DialectId, EmbeddingRequest, EmbeddingResponse, GatewayError, StreamEvent, TranslationWarning } from '@rosetta/canonical';

/**
 * Where a dialect's own clients send their API key; `x-api-key` and `Authorization: Bearer` are
 * accepted on every route besides. A 401 names these places first.
 */
export interface CredentialSources {
  headers?: readonly string[];
  query?: readonly string[];
}

/** How a dialect frames a stream: content type, an optional opening and closing, one encoder. */
export interface StreamFraming {
  contentType: string;
  open?: string;
  encode(event: StreamEvent): string;
  close?(): string;
  /** Work to finish before the last event (`finish` or `error`) is written, e.g. storing the answer. */
  beforeEnd?(event: StreamEvent): Promise<void>;
}

/** What a chat request brings, as the data plane hands it to the dialect. */
export interface ChatInput {
  /** The parsed JSON body (anything: the dialect's decode checks it). */
  body: unknown;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The gateway's request id (stream and message ids are derived from it). */
  requestId: string;
  /** Where the route's path names them (Gemini's `models/{model}:{method}`). */
  model?: string;
  stream?: boolean;
  /** The model a body that names none gets (rosetta/auto). */
  defaultModel: string;
  /**
   * The stored answers the body refers to (`storage.references`) that belong to the caller, and
   * every answer those continue (`StoredAnswer.parentId`), by id.
   */
  stored?: ReadonlyMap<string, StoredRecord>;
  /** Keeps an answer for the caller; resolves once any replica can read it back (never rejects). */
  keep?(answer: StoredAnswer): Promise<void>;
}

/** What a dialect stores of one answer: its own JSON, read back only by the dialect. */
export type StoredRecord = Record<string, unknown>;

export interface StoredAnswer {
  id: string;
  /** The stored answer this one continues; loading it loads the whole chain. */
  parentId?: string;
  record: StoredRecord;
}

/**
 * Answers kept server-side and continued by id (the Responses API's `store` and
 * `previous_response_id`). The gateway loads what a body refers to before `decodeChat`, stores
 * what the dialect hands to `keep`, owned by the caller's key, and serves the stored routes.
 */
export interface DialectStorage {
  /** What a stored answer is called in messages ("Response"). */
  readonly noun: string;
  /** The body field that continues a stored conversation, named when one is too large to load. */
  readonly continuedBy: string;
  /** The ids of stored answers a body refers to (validated and bounded by the dialect). */
  references(body: unknown): string[];
  /** `stored_get`: the answer as the client sees it again. */
  render(record: StoredRecord, query: Record<string, unknown>): unknown;
  /** `stored_input_items`: what the answer was asked, as a list. */
  renderInputItems(record: StoredRecord, query: Record<string, unknown>): unknown;
  /** `stored_delete`: the deletion's answer. */
  renderDeleted(id: string): unknown;
}

/** What a model list shows of a model, whatever the dialect's shape. */
export interface ModelFacts {
  id: string;
  displayName: string;
  description: string;
  contextLength?: number;
  maxCompletionTokens?: number;
  /** What the model does: chat (the default) or embeddings. */
  kind?: 'chat' | 'embedding';
}

/** One chat request decoded, with how its answer goes back. */
export interface ChatExchange {
  request: CanonicalRequest;
  /** What the canonical request could not carry (shown when another protocol serves it). */
  warnings: TranslationWarning[];
  /** Response headers the dialect's SDKs expect (Anthropic's `request-id`). */
  headers?: Record<string, string>;
  /** The answer's body (a promise where the dialect stores it first). */
  encodeResponse(response: CanonicalResponse): unknown;
  /**
   * The stream's framing, once the served model is known; `promptTokens` is the gateway's estimate
   * of the prompt (the one limits and routing used), for dialects whose streams announce it up front.
   */
  streamFraming(servedModel: string, promptTokens: number): StreamFraming;
  /**
   * The framing of a same-protocol stream (docs/decisions/0017): it writes the upstream's `wire`
   * frames, changing only what the client must see differently (the served model, ids, the cost),
   * and renders the gateway's in-stream errors; the other events only inform it. Absent where the
   * dialect's streams always go through the canonical events.
   */
  passThroughFraming?(servedModel: string, promptTokens: number): StreamFraming;
}

/** What an embeddings request brings, as the data plane hands it to the dialect. */
export interface EmbedInput {
  /** The parsed JSON body (anything: the dialect validates it). */
  body: unknown;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  /** Where the route's path names it (Gemini's `models/{model}:embedContent`). */
  model?: string;
  /** Gemini's `:batchEmbedContents` rather than `:embedContent`. */
  batch?: boolean;
}

/** One embeddings request decoded, with how its answer goes back. */
export interface EmbedExchange {
  request: EmbeddingRequest;
  /** What the canonical request could not carry (shown when another protocol serves it). */
  warnings: TranslationWarning[];
  /** The answer in the dialect's shape; `costUsd` is what it cost the caller, where the dialect shows it. */
  encodeResponse(response: EmbeddingResponse, costUsd: number | undefined): unknown;
}

/** One client-facing route of a dialect, by what it does (the data plane has one handler per operation). */
export interface DialectRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** The OpenAPI path; a `{name}` takes the rest of the path (up to a fixed suffix after it). */
  pattern: string;
  operation: 'chat' | 'count_tokens' | 'model_call' | 'list_models' | 'get_model' | 'stored_get' | 'stored_delete' | 'stored_input_items' | 'embed';
}

/**
 * A client dialect, described once by its protocol library: its routes, its chat decode (the body
 * checked and converted to the canonical request in one pass) and encode, its stream framing, its error envelope and where its clients send
 * the key. Listed once in `@rosetta/protocols/dialects`; the data plane's route table and its
 * handlers are derived from the list.
 */
export interface ClientDialect {
  readonly id: DialectId;
  readonly routes: readonly DialectRoute[];
  /** Checks and decodes a chat body in one pass; throws a 400 GatewayError naming the field. */
  decodeChat(input: ChatInput): ChatExchange;
  /** `count_tokens`: checks and decodes a body; the gateway estimates, `encode` answers. */
  decodeCountTokens?(input: ChatInput): { request: CanonicalRequest; encode(tokens: number): unknown };
  /** `model_call` routes: the model and what to do, from the raw rest of the path. */
  parseModelCall?(tail: string): { model: string; operation: 'chat' | 'stream' | 'count_tokens' | 'embed' | 'batch_embed' };
  /** `embed` routes (and `embed`/`batch_embed` model calls): validates and decodes an embeddings body; a 400 names the field. */
  decodeEmbed?(input: EmbedInput): EmbedExchange;
  /**
   * `POST /v1/route` (explaining a routing decision): a body decoded where it differs from a chat
   * body (no output cap required, say; a model in the body). Absent: `decodeChat` is used.
   */
  decodeForRouting?(body: Record<string, unknown>, model: string): CanonicalRequest;
  /** Whether an unlabelled `/v1/route` body looks like this dialect's (the last dialect is the fallback). */
  recognises?(body: Record<string, unknown>, headers: ChatInput['headers']): boolean;
  /** `list_models` / `get_model`: the model list in the dialect's own shape. */
  encodeModelList?(models: readonly ModelFacts[]): unknown;
  encodeModel?(model: ModelFacts): unknown;
  /** Whether a path is this dialect's, so errors there (auth, an unknown route) use its envelope. */
  ownsPath(path: string): boolean;
  /** Extra places its clients put the key (Google's SDK: `x-goog-api-key`, `?key=`). */
  readonly credential: CredentialSources;
  /** The error body its SDKs parse. */
  renderError(error: GatewayError, requestId: string): Record<string, unknown>;
  /** Answers kept by id, for dialects that have them (the Responses API). */
  readonly storage?: DialectStorage;
}

/**
 * `model` defaults to the Mixture of Models when a body leaves it out (ARCHITECTURE: rosetta/auto
 * is the default model). Only an absent field: `null`, `""` or a number stay 400s naming it.
 */
export function withDefaultModel(raw: unknown, model: string): unknown {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as Record<string, unknown>)['model'] === undefined) {
    (raw as Record<string, unknown>)['model'] = model;
  }
  return raw;
}

/** One request header as a string (repeated headers joined). */
export function headerOf(input: Pick<ChatInput, 'headers'>, name: string): string | undefined {
  const value = input.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';
