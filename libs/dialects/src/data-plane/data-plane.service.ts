import { Inject, Injectable } from '@nestjs/common';
import { authenticate, KeyCacheService } from '@rosetta/auth';
import { RateLimitService, type RequestCount } from '@rosetta/limits';
import { APP_LOGGER, logAccess, requestIds, ROSETTA_CONFIG, TracingService, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { dialect } from '@rosetta/protocols/dialects';
import { answerError } from '../common/dialect-exception.filter';
import { sendJson, type GatewayHttpRequest } from '../common/http-types';
import { readJsonBody } from '../common/read-json-body';
import { DataPlaneHandlers, type Handler } from './data-plane-handlers.service';
import { matchDataPlaneRoute, type DataPlaneRoute, type HandlerName } from './data-plane-routes';

/**
 * Routes that call an upstream: their count against RPM waits for the admission script, which
 * takes it with the token reservation and the budget holds in one Redis round trip
 * (docs/decisions/0016). Every other route counts up front.
 */
const COUNTED_AT_ADMISSION: ReadonlySet<HandlerName> = new Set<HandlerName>(['chat', 'embed', 'model_call']);

/**
 * The data plane (docs/decisions/0005, 0006): every client-facing route (DATA_PLANE_ROUTES) is
 * served here, straight from node:http, by one chain of stages — request id, access log, API key
 * (where the route's dialect looks for it, in the headers and query only), JSON body (POST), requests per minute, the route's
 * handler — with any failure rendered in the route's dialect, and the request's trace span when
 * tracing is on. Routes that call an upstream count requests per minute in their admission
 * instead (COUNTED_AT_ADMISSION); one that fails or answers before admission is counted here. Nest's Express pipeline sees only what is not a data-plane route: the admin API,
 * docs, metrics, probes, and unknown paths (its 404). A concern every client route needs belongs
 * in this chain, once.
 */
@Injectable()
export class DataPlane {
  private readonly handlers: Readonly<Record<string, Handler>>;

  constructor(
    handlers: DataPlaneHandlers,
    private readonly keys: KeyCacheService,
    private readonly limits: RateLimitService,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    private readonly tracing: TracingService,
  ) {
    this.handlers = handlers.byName;
  }

  /** Takes the request when it is a data-plane route (and answers it); false leaves it to Nest. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const found = matchDataPlaneRoute(req.method ?? '', path);
    if (!found) return false;
    void this.serve(req, res, path, mark < 0 ? '' : url.slice(mark + 1), found.route, found.tail);
    return true;
  }

  private async serve(req: IncomingMessage, res: ServerResponse, path: string, search: string, route: DataPlaneRoute, tail: string): Promise<void> {
    const { id, clientId } = requestIds(req.headers['x-request-id']);
    res.setHeader('x-request-id', id);
    if (clientId !== undefined) res.setHeader('x-client-request-id', clientId);
    logAccess(this.logger, req, res, id, path);
    const request: GatewayHttpRequest = {
      id,
      clientRequestId: clientId,
      path,
      method: req.method ?? 'GET',
      dialect: route.dialect,
      headers: req.headers,
      query: search ? parseQuery(search) : {},
      body: undefined,
    };
    // Off, tracing is this one flag test and nothing else (OTEL_EXPORTER_OTLP_ENDPOINT unset).
    if (this.tracing.enabled) request.trace = this.tracing.traceRequest(req, res, request, route.pattern);
    try {
      // The key first, from the headers: a stranger's body (up to BODY_LIMIT_BYTES) is never
      // buffered or parsed. Answered before it is read, the rest of its upload is discarded as it
      // arrives (Node dumps an unread request once the answer ends), so the connection stays usable.
      const key = await authenticate(this.keys, request, dialect(route.dialect).credential);
      request.apiKey = key;
      if (route.method === 'POST') request.body = await readJsonBody(req, this.config.bodyLimitBytes);
      const count: RequestCount = { deferred: COUNTED_AT_ADMISSION.has(route.handler) };
      request.requestCount = count;
      if (!count.deferred) await this.count(key, count, res);
      let body: unknown;
      let failure: { error: unknown } | undefined;
      try {
        body = await this.handlers[route.handler]!(request, res, tail, dialect(route.dialect));
      } catch (error) {
        failure = { error };
      }
      // A deferred request that failed or answered before its admission counted it (a body that
      // does not validate, an unknown or forbidden model, a model call that only counts tokens) is
      // counted now, as it was counted before its handler ran: invalid requests still use up the
      // minute and carry the same headers, and over the limit get the 429 rather than their own
      // error, as they always did.
      if (count.state === undefined) await this.count(key, count, res);
      if (failure) throw failure.error;
      if (body !== undefined && !res.headersSent) sendJson(res, 200, body);
    } catch (error) {
      request.trace?.fail(error);
      answerError(error, request, res, this.logger);
    }
  }

  /**
   * Counts the request against RPM (and reads its token window) and puts the x-ratelimit-* headers
   * on the response; throws the 429 when the limit is reached, unless the answer has started.
   */
  private async count(key: NonNullable<GatewayHttpRequest['apiKey']>, count: RequestCount, res: ServerResponse): Promise<void> {
    count.state = await this.limits.countRequest(key);
    if (res.headersSent) return;
    const headers = this.limits.headers(count.state);
    for (const name in headers) res.setHeader(name, headers[name]!);
    this.limits.admitRequest(count.state);
  }
}
