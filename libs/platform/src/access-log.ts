import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppLogger } from './logger';

/**
 * One structured line per request when it closes: no keys, no prompt text, written
 * asynchronously. Nothing is attached when the log level hides it, so a production replica at
 * `warn` pays nothing per request.
 */
export function logAccess(logger: AppLogger, req: IncomingMessage, res: ServerResponse, requestId: string, path: string): void {
  if (!logger.isLevelEnabled('info')) return;
  const started = process.hrtime.bigint();
  res.once('close', () => {
    const header = (name: string): string | undefined => res.getHeader(name) as string | undefined;
    logger.info(
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
