import { readJsonBody, sendError, toGatewayError, type GatewayHttpResponse } from '@rosetta/dialects';
import { dialectForPath, logAccess, resolveRequestId, type AppLogger } from '@rosetta/platform';
import type { NextFunction, Request, Response } from 'express';

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
    logAccess(logger, req, res, (req as Request & { id: string }).id, req.path);
    next();
  };
}

/**
 * JSON bodies of any content type, up to the limit, read the way the chat lane reads them.
 * Parse failures are answered here, in the caller's dialect, before any route runs.
 */
export function jsonBodyMiddleware(limitBytes: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    readJsonBody(req, limitBytes).then(
      (body) => {
        req.body = body;
        next();
      },
      (error: unknown) => {
        const id = (req as Request & { id: string }).id;
        sendError(res as unknown as GatewayHttpResponse, dialectForPath(req.path), toGatewayError(error, req), id);
      },
    );
  };
}
