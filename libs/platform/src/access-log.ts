import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppLogger } from './logger';

/**
 * One structured line per request when it closes: no keys, no prompt text, written
 * asynchronously. Nothing is attached when the log level hides it, so a production replica at
 * `warn` pays nothing per request.
 */
/** Probes and clients checking the gateway is there: logged at debug, so they do not bury the traffic. */
function isProbe(method: string | undefined, path: string): boolean {
  return path === '/healthz' || path === '/readyz' || ((method === 'HEAD' || method === 'GET') && path === '/');
}

export function logAccess(logger: AppLogger, req: IncomingMessage, res: ServerResponse, requestId: string, path: string): void {
  const level = isProbe(req.method, path) ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const started = process.hrtime.bigint();
  res.once('close', () => {
    const header = (name: string): string | undefined => res.getHeader(name) as string | undefined;
    logger[level](
      {
        requestId,
        method: req.method,
        path,
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        model: header('x-rosetta-model'),
        provider: header('x-rosetta-provider'),
        completed: res.writableFinished,
      },
      'request',
    );
  });
}
