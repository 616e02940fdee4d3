import type { INestApplication } from '@nestjs/common';
import type { AppLogger } from '@rosetta/platform';
import type { Server } from 'node:http';

/**
 * On SIGTERM/SIGINT: stop accepting connections, let open requests and streams finish for up to
 * `graceMs`, then run the modules' shutdown hooks (flush batches, close pools) and exit 0.
 * A second signal, or a hook that hangs, ends the process at once.
 */
export function installGracefulShutdown(app: INestApplication, server: Server, logger: AppLogger, graceMs: number): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, graceMs }, 'shutting down: draining open requests');
    setTimeout(() => process.exit(1), graceMs + 10_000).unref();
    await drain(server, graceMs);
    await app.close().catch((error: Error) => logger.error({ err: error.message }, 'error during shutdown'));
    logger.info('shutdown complete');
    logger.flush();
    setImmediate(() => process.exit(0));
  };
  process.once('SIGTERM', (s) => void stop(s));
  process.once('SIGINT', (s) => void stop(s));
}

function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    // Keep-alive sockets with no request in flight would hold close() open for no reason.
    server.closeIdleConnections();
  });
}
