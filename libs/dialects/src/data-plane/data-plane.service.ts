import { Inject, Injectable } from '@nestjs/common';
import { authenticate, KeyCacheService } from '@rosetta/auth';
import { RateLimitService } from '@rosetta/limits';
import { APP_LOGGER, logAccess, requestIds, ROSETTA_CONFIG, TracingService, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { dialect } from '@rosetta/protocols/dialects';
import { answerError } from '../common/dialect-exception.filter';
import { sendJson, type GatewayHttpRequest } from '../common/http-types';
import { readJsonBody } from '../common/read-json-body';
import { DataPlaneHandlers, type Handler } from './data-plane-handlers.service';
import { matchDataPlaneRoute, type DataPlaneRoute } from './data-plane-routes';

/**
 * The data plane (docs/decisions/0005, 0006): every client-facing route (DATA_PLANE_ROUTES) is
 * served here, straight from node:http, by one chain of stages — request id, access log, JSON body
 * (POST), API key (where the route's dialect looks for it), requests per minute, the route's
 * handler — with any failure rendered in the route's dialect, and the request's trace span when
 * tracing is on. Nest's Express pipeline sees only what is not a data-plane route: the admin API,
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
      if (route.method === 'POST') request.body = await readJsonBody(req, this.config.bodyLimitBytes);
      const key = await authenticate(this.keys, request, dialect(route.dialect).credential);
      request.apiKey = key;
      const state = await this.limits.checkRequest(key);
      request.rateLimit = state;
      const headers = this.limits.headers(state);
      for (const name in headers) res.setHeader(name, headers[name]!);
      const body = await this.handlers[route.handler]!(request, res, tail, dialect(route.dialect));
      if (body !== undefined && !res.headersSent) sendJson(res, 200, body);
    } catch (error) {
      request.trace?.fail(error);
      answerError(error, request, res, this.logger);
    }
  }
}
