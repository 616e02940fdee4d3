import { GatewayError } from '@rosetta/canonical';
import { sendError, type GatewayHttpResponse } from '@rosetta/dialects';
import { dialectForPath, resolveRequestId, type AppLogger } from '@rosetta/platform';
import express, { type NextFunction, type Request, type Response } from 'express';

/** Every response carries x-request-id; the id is on the request for logs and error bodies. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const id = resolveRequestId(req.headers['x-request-id']);
  (req as Request & { id: string }).id = id;
  res.setHeader('x-request-id', id);
  next();
}

/** One structured line per request: no keys, no prompt text. Written asynchronously. */
export function accessLogMiddleware(logger: AppLogger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const header = (name: string): string | undefined => res.getHeader(name) as string | undefined;
      logger.info(
        {
          requestId: (req as Request & { id: string }).id,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          model: header('x-rosetta-model'),
          provider: header('x-rosetta-provider'),
          completed: res.writableFinished,
        },
        'request',
      );
    });
    next();
  };
}

/**
 * JSON bodies of any content type (curl -d sends form encoding by default), up to the limit.
 * Parse failures are answered here, in the caller's dialect, before any route runs.
 */
export function jsonBodyMiddleware(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, type: () => true, strict: true });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (error?: unknown) => {
      if (!error) return next();
      const id = (req as Request & { id: string }).id;
      sendError(res as unknown as GatewayHttpResponse, dialectForPath(req.path), bodyError(error, limitBytes), id);
    });
  };
}

function bodyError(error: unknown, limitBytes: number): GatewayError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    return new GatewayError('request_too_large', `Request body exceeds the limit of ${limitBytes} bytes`);
  }
  if (type === 'entity.parse.failed') {
    const detail = error instanceof Error ? error.message.replace(/^.*?JSON/, 'JSON') : '';
    return GatewayError.invalidRequest(`Malformed JSON in request body${detail ? `: ${detail}` : ''}`);
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return GatewayError.invalidRequest('Unsupported request body encoding; send UTF-8 JSON');
  }
  return GatewayError.invalidRequest('Could not read the request body');
}
