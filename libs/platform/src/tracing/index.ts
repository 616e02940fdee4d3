// Types only from the span modules: they load OpenTelemetry, which TracingService imports (with
// the SDK, otel-sdk) only when tracing is on.
export * from './tracing-config';
export * from './tracing.service';
export type { AttemptTarget, RequestOutcome, RequestSpan } from './request-span';
export type { AttemptAnswer, AttemptSpan } from './attempt-span';
