import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { dialectForPath, doubledBasePathHint, missingBasePathHint } from '@rosetta/protocols/dialects';
import { ClientAbortedError } from '@rosetta/routing';
import { malformedPathError } from '@rosetta/protocols/common';
import type { GatewayHttpRequest, GatewayHttpResponse } from './http-types';
import { sendError } from './render-error';

/**
 * The last word on every failure: rendered in the caller's dialect with the request id, never a
 * stack trace. Unexpected errors are logged (without request content) and shown as a plain 500.
 */
@Catch()
export class DialectExceptionFilter implements ExceptionFilter {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerError(exception, http.getRequest<GatewayHttpRequest>(), http.getResponse<GatewayHttpResponse>(), this.logger);
  }
}

/**
 * What the filter does, callable outside Nest (the data plane): a client that went away gets
 * nothing; anything else is rendered in the caller's dialect and noted on the usage draft.
 */
export function answerError(exception: unknown, req: Pick<GatewayHttpRequest, 'id' | 'method' | 'path' | 'dialect' | 'usageDraft'>, res: GatewayHttpResponse, logger: AppLogger): void {
  if (exception instanceof ClientAbortedError) {
    if (!res.writableEnded) res.end();
    return;
  }
  const error = toGatewayError(exception, req);
  req.usageDraft?.failedBy(error);
  if (error.status >= 500 && !(exception instanceof GatewayError)) {
    logger.error({ requestId: req.id, err: describe(exception) }, 'unhandled error');
  }
  sendError(res, req.dialect ?? dialectForPath(req.path), error, req.id);
}

export function toGatewayError(exception: unknown, req: Pick<GatewayHttpRequest, 'method' | 'path'>): GatewayError {
  if (exception instanceof GatewayError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) {
      const hint = doubledBasePathHint(req.path) ?? missingBasePathHint(req.path);
      return new GatewayError('not_found_error', `Unknown route: ${req.method} ${req.path}${hint ? `; ${hint}` : ''}`);
    }
    if (status === 413) return new GatewayError('request_too_large', 'Request body is too large');
    // Express's router could not percent-decode a route parameter (`/v1/models/%ZZ`).
    if (status === 400 && exception.message.startsWith('Failed to decode param')) return malformedPathError(req.path);
    if (status < 500) return new GatewayError('invalid_request_error', exception.message, { status });
  }
  return new GatewayError('api_error', 'Internal server error');
}

function describe(exception: unknown): Record<string, unknown> {
  if (exception instanceof Error) return { name: exception.name, message: exception.message, stack: exception.stack };
  return { value: String(exception) };
}
