import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { azureOpenAiProtocol } from './clouds/azure-openai';
import { bedrockAnthropicProtocol } from './clouds/bedrock-anthropic';
import { bedrockConverseProtocol } from './clouds/bedrock-converse';
import { vertexAnthropicProtocol } from './clouds/vertex-anthropic';
import { vertexGeminiProtocol } from './clouds/vertex-gemini';
import { CONTROL_PREFIX, handleControl } from './control';
import { BodyTooLargeError, flattenHeaders, parseJson, randomId, readBody, sendJson } from './http-io';
import { parseScript } from './parse-sim-reply';
import { credentialScope } from './prompt-cache/credential-scope';
import { type Clock, PromptCacheStore } from './prompt-cache/prompt-cache-store';
import { resolvePromptCache } from './prompt-cache/resolve-prompt-cache';
import { anthropicProtocol } from './protocols/anthropic';
import { geminiProtocol } from './protocols/gemini';
import { geminiEmbeddingsProtocol } from './protocols/gemini-embeddings';
import { openAiProtocol } from './protocols/openai';
import { openAiEmbeddingsProtocol } from './protocols/openai-embeddings';
import { responsesProtocol } from './protocols/responses';
import type { ProtocolModule, SimExchange, SimSettings } from './protocols/protocol-module';
import { planReply, type Script } from './reply-plan';
import { DEFAULT_MAX_RECORDED, type RecordedRequest, RequestRecorder } from './request-recorder';
import { ScriptBook } from './script-book';

export interface SimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Delay before the first byte of every protocol response. */
  latencyMs?: number;
  /** Stream pacing; 0 or undefined streams as fast as possible. */
  tokensPerSecond?: number;
  /** Tokens per streamed content chunk; default 1. */
  chunkTokens?: number;
  /** Recorder capacity, oldest dropped first; default 10,000, 0 records nothing. */
  maxRecordedRequests?: number;
  /** OpenAI-protocol calls need no API key, as on a local model server (Ollama, vLLM); default false. */
  keyless?: boolean;
  /** The prompt caches' clock (ms since the epoch); tests pass their own to expire entries without waiting. */
  clock?: Clock;
}

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:PORT, without a trailing slash or /v1. */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Recorded protocol requests in arrival order. */
  requests(): RecordedRequest[];
  /** Forgets recorded requests, scripts and the prompt caches. */
  reset(): void;
  /** Forgets the prompt caches only. */
  clearPromptCaches(): void;
  /** Registers a script; newer scripts win over older ones. */
  script(s: Script): void;
}

/** Every protocol module the server dispatches to, asked in order. */
const PROTOCOLS: readonly ProtocolModule[] = [vertexGeminiProtocol, vertexAnthropicProtocol, azureOpenAiProtocol, bedrockConverseProtocol, bedrockAnthropicProtocol, responsesProtocol, openAiProtocol, anthropicProtocol, geminiProtocol, openAiEmbeddingsProtocol, geminiEmbeddingsProtocol];

interface ServerDeps {
  settings: SimSettings;
  scripts: ScriptBook;
  recorder: RequestRecorder;
  promptCaches: PromptCacheStore;
}

function nonNegative(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number, got ${value}`);
  return value;
}

function resolveSettings(options: SimulatorOptions): SimSettings {
  const chunkTokens = nonNegative(options.chunkTokens, 'chunkTokens', 1);
  if (!Number.isInteger(chunkTokens) || chunkTokens < 1) throw new RangeError('chunkTokens must be an integer >= 1');
  return {
    latencyMs: nonNegative(options.latencyMs, 'latencyMs', 0),
    tokensPerSecond: nonNegative(options.tokensPerSecond, 'tokensPerSecond', 0),
    chunkTokens,
    keyless: options.keyless ?? false,
  };
}

async function dispatch(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  const requestId = `req_sim_${randomId(20)}`;
  res.setHeader('x-request-id', requestId);
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://simulator.invalid');
  let rawBody: string;
  try {
    rawBody = await readBody(req);
  } catch (error: unknown) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    res.setHeader('connection', 'close');
    return sendJson(res, 413, { error: { message: error.message, type: 'invalid_request_error', param: null, code: null } });
  }
  if (url.pathname.startsWith(CONTROL_PREFIX)) return handleControl(deps, method, url, rawBody, res);
  const protocol = PROTOCOLS.find((candidate) => candidate.handles(method, url.pathname));
  if (!protocol) {
    const message = `Unknown request URL: ${method} ${url.pathname}.`;
    return sendJson(res, 404, { error: { message, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
  }
  const headers = flattenHeaders(req);
  const path = req.url ?? '/';
  const receivedAt = new Date().toISOString();
  deps.recorder.record({ id: requestId, protocol: protocol.protocol, method, path, headers, rawBody, receivedAt });
  const exchange: SimExchange = {
    req, res, method, url, headers, rawBody, requestId,
    body: rawBody === '' ? { ok: false, error: 'empty body' } : parseJson(rawBody),
    signal: controller.signal,
    settings: deps.settings,
    cacheScope: credentialScope(headers),
    // `this`, not the literal: a cloud surface plans on its rewritten copy (rewriteExchange), whose scope may differ.
    plan(request, cache) {
      const scope = this.cacheScope;
      return planReply(request, deps.scripts, cache && (() => resolvePromptCache(deps.promptCaches, scope, request, cache)));
    },
  };
  await protocol.handle(exchange);
}

/** A handler bug must not take the process down: answer 500, or cut a stream already under way. */
function onRequest(deps: ServerDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    dispatch(deps, req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const message = error instanceof Error ? error.message : 'unexpected simulator failure';
      sendJson(res, 500, { error: { message, type: 'server_error', param: null, code: null } });
    });
  };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive and in-flight streams would hold close() open; their 'close' aborts all timers.
    server.closeAllConnections();
  });
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const deps: ServerDeps = {
    settings: resolveSettings(options),
    scripts: new ScriptBook(),
    recorder: new RequestRecorder(nonNegative(options.maxRecordedRequests, 'maxRecordedRequests', DEFAULT_MAX_RECORDED)),
    promptCaches: new PromptCacheStore(options.clock),
  };
  const server = createServer(onRequest(deps));
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  const address = await listen(server, options.port ?? 0, host);
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    close: () => (closing ??= closeServer(server)),
    requests: () => deps.recorder.list(),
    reset: () => {
      deps.recorder.clear();
      deps.scripts.clear();
      deps.promptCaches.clear();
    },
    clearPromptCaches: () => deps.promptCaches.clear(),
    script: (s) => deps.scripts.add(parseScript(s)),
  };
}
