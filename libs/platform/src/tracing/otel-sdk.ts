import { diag, DiagLogLevel } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { IncomingMessage } from 'node:http';
import type { AppLogger } from '../logger';
import { openRequestSpan, type RequestSpan, type TracingSdk } from './request-span';
import type { TracingConfig } from './tracing-config';

/** What TracingService holds while tracing is on. */
export interface TracingRuntime {
  openRequest(req: IncomingMessage, id: string, path: string, route: string): RequestSpan;
  /** Exports what is still batched, then stops. */
  shutdown(): Promise<void>;
}

/**
 * The SDK, imported only when tracing is on (TracingService loads this module lazily): a tracer
 * provider with a batch span processor over the OTLP/HTTP exporter of the configured encoding.
 * Nothing is registered globally — no global tracer provider, no context manager — so no
 * async-context tracking runs: the request path hands its spans on explicitly.
 */
export function startTracing(config: TracingConfig, logger: AppLogger): TracingRuntime {
  // The SDK reports export failures through `diag`, silent unless given a logger.
  const warn = throttled(logger);
  diag.setLogger(
    {
      error: warn,
      warn,
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  // The exporters read the endpoint, headers, time-out and compression from the OTEL_* variables.
  const exporter = config.protocol === 'http/json' ? new OtlpJsonTraceExporter() : new OtlpProtobufTraceExporter();
  // service.name: OTEL_SERVICE_NAME, else OTEL_RESOURCE_ATTRIBUTES, else `rosetta`.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'rosetta' }))
    .merge(detectResources({ detectors: [envDetector] }));
  // BatchSpanProcessor and the provider read OTEL_BSP_* and OTEL_TRACES_SAMPLER[_ARG] themselves.
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  const sdk: TracingSdk = { tracer: provider.getTracer('rosetta'), propagator: new W3CTraceContextPropagator() };
  return {
    openRequest: (req, id, path, route) => openRequestSpan(sdk, req, id, path, route, config.captureContent),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * A collector that is down fails every batch, several a second under load: one line per half
 * minute says so, with how many like it were left out.
 */
function throttled(logger: AppLogger, everyMs = 30_000): (message: string) => void {
  let last = 0;
  let suppressed = 0;
  return (message) => {
    const now = Date.now();
    if (now - last < everyMs) {
      suppressed += 1;
      return;
    }
    logger.warn({ component: 'opentelemetry', suppressed }, `opentelemetry: ${readable(message)}`);
    last = now;
    suppressed = 0;
  };
}

/** The SDK hands errors over as JSON text, stack included: their message is what a reader needs. */
function readable(message: string): string {
  try {
    const parsed: unknown = JSON.parse(message);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') return (parsed as { message: string }).message;
  } catch {
    // not JSON: as it is
  }
  return message.slice(0, 500);
}
