import type { OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppLogger } from '../logger';
import type { TracingRuntime } from './otel-sdk';
import type { RequestOutcome, RequestSpan } from './request-span';
import type { TracingConfig } from './tracing-config';

/** The request as the data plane holds it: its id and path, and the ledger draft once opened. */
export interface TracedRequest {
  id: string;
  path: string;
  usageDraft?: RequestOutcome;
}

/**
 * OpenTelemetry tracing, or nothing. Off (no OTLP endpoint), `enabled` is false and no
 * OpenTelemetry module is even loaded (everything here imports it as types only; the runtime is
 * imported when tracing starts), and callers test that one flag before doing anything: no span
 * object, no header parsing, no allocation per request. On, each chat request gets a RequestSpan
 * that ends when its response closes; the SDK is flushed when the application shuts down.
 */
export class TracingService implements OnApplicationShutdown {
  readonly enabled: boolean;

  private constructor(private readonly runtime: TracingRuntime | undefined) {
    this.enabled = runtime !== undefined;
  }

  static off(): TracingService {
    return new TracingService(undefined);
  }

  static async start(config: TracingConfig | undefined, logger: AppLogger): Promise<TracingService> {
    if (!config) return TracingService.off();
    const { startTracing } = await import('./otel-sdk');
    const service = new TracingService(startTracing(config, logger));
    logger.info({ endpoint: config.endpoint, protocol: config.protocol, captureContent: config.captureContent }, 'tracing on: spans exported by OTLP');
    return service;
  }

  /**
   * The span of one client request; it ends by itself when `res` closes. Only when enabled.
   * `route` is the route's template (its OpenAPI path), the span's `http.route`.
   */
  traceRequest(req: IncomingMessage, res: ServerResponse, request: TracedRequest, route: string): RequestSpan {
    const span = this.runtime!.openRequest(req, request.id, request.path, route);
    res.once('close', () => span.end(res.statusCode, request.usageDraft, !res.writableEnded));
    return span;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runtime?.shutdown().catch(() => undefined);
  }
}
