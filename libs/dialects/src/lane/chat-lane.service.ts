import { Inject, Injectable } from '@nestjs/common';
import { authenticate, KeyCacheService } from '@rosetta/auth';
import { RateLimitService } from '@rosetta/limits';
import { APP_LOGGER, logAccess, requestIds, ROSETTA_CONFIG, TracingService, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { ChatEndpoints } from '../chat-endpoints.service';
import { answerError } from '../common/dialect-exception.filter';
import type { GatewayHttpRequest } from '../common/http-types';
import { readJsonBody } from '../common/read-json-body';
import { parseGeminiModelPath } from '../gemini/gemini-model-path';

type Serve = (endpoints: ChatEndpoints, req: GatewayHttpRequest, res: ServerResponse) => Promise<void>;

const GEMINI_PREFIX = '/v1beta/models/';
const GENERATE = /:(?:generateContent|streamGenerateContent)$/;

/** The chat routes the lane owns, by exact path; anything else stays with Nest. */
function chatRoute(path: string): Serve | undefined {
  if (path === '/v1/chat/completions') return (endpoints, req, res) => endpoints.openai(req, res);
  if (path === '/v1/messages') return (endpoints, req, res) => endpoints.anthropic(req, res);
  if (path.startsWith(GEMINI_PREFIX) && GENERATE.test(path)) {
    return (endpoints, req, res) => {
      // The raw path: decoded here, a malformed escape answered 400 like any other request error.
      const { model, method } = parseGeminiModelPath(path.slice(GEMINI_PREFIX.length));
      return endpoints.gemini(req, res, model, method === 'streamGenerateContent');
    };
  }
  return undefined;
}

/**
 * The hot path (docs/decisions/0005): the three chat endpoints served straight from node:http,
 * ahead of Nest's Express pipeline, doing exactly what the pipeline does for them — request id,
 * access log, JSON body, API key, requests-per-minute — and rendering every failure in the
 * caller's dialect like the exception filter, and opens the request's trace span when tracing is
 * on. Everything else (admin, models, count_tokens,
 * /v1/route, probes, path variants) goes on to Nest.
 */
@Injectable()
export class ChatLane {
  constructor(
    private readonly endpoints: ChatEndpoints,
    private readonly keys: KeyCacheService,
    private readonly limits: RateLimitService,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    private readonly tracing: TracingService,
  ) {}

  /** Takes the request when it is a chat call (and answers it); false leaves it to Nest. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST') return false;
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const serve = chatRoute(path);
    if (!serve) return false;
    void this.serve(req, res, path, mark < 0 ? '' : url.slice(mark + 1), serve);
    return true;
  }

  private async serve(req: IncomingMessage, res: ServerResponse, path: string, search: string, serve: Serve): Promise<void> {
    const { id, clientId } = requestIds(req.headers['x-request-id']);
    res.setHeader('x-request-id', id);
    if (clientId !== undefined) res.setHeader('x-client-request-id', clientId);
    logAccess(this.logger, req, res, id, path);
    const request: GatewayHttpRequest = { id, clientRequestId: clientId, path, method: 'POST', headers: req.headers, query: search ? parseQuery(search) : {}, body: undefined };
    // Off, tracing is this one flag test and nothing else (OTEL_EXPORTER_OTLP_ENDPOINT unset).
    if (this.tracing.enabled) request.trace = this.tracing.traceRequest(req, res, request);
    try {
      // The order Nest's pipeline had: body, then the key, then the request limit.
      request.body = await readJsonBody(req, this.config.bodyLimitBytes);
      const key = await authenticate(this.keys, request);
      request.apiKey = key;
      const state = await this.limits.checkRequest(key);
      request.rateLimit = state;
      const headers = this.limits.headers(state);
      for (const name in headers) res.setHeader(name, headers[name]!);
      await serve(this.endpoints, request, res);
    } catch (error) {
      request.trace?.fail(error);
      answerError(error, request, res, this.logger);
    }
  }
}
