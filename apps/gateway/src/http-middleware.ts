import { readJsonBody, sendError, toGatewayError, type GatewayHttpResponse } from '@rosetta/dialects';
import { logAccess, requestIds, type AppLogger } from '@rosetta/platform';
import { dialectForPath } from '@rosetta/protocols/dialects';
import type { NextFunction, Request, Response } from 'express';

/**
 * Every response carries the gateway's own x-request-id; the id is on the request for logs and
 * error bodies, and a caller's x-request-id is kept beside it (echoed as x-client-request-id).
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const { id, clientId } = requestIds(req.headers['x-request-id']);
  Object.assign(req, { id, clientRequestId: clientId });
  res.setHeader('x-request-id', id);
  if (clientId !== undefined) res.setHeader('x-client-request-id', clientId);
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
 * JSON bodies of any content type, up to the limit, read the way the data plane reads them
 * (the admin API's bodies).
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
