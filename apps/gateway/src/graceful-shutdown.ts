import type { INestApplication } from '@nestjs/common';
import type { AppLogger } from '@rosetta/platform';
import { serverStop } from '@rosetta/routing';
import type { Server } from 'node:http';

/**
 * The same stop request often arrives twice: a terminal's Ctrl-C or systemd's group SIGTERM reaches
 * both `npm start`'s launcher (which forwards it) and the gateway. Signals this close together are
 * one request.
 */
export const DUPLICATE_SIGNAL_MS = 1_000;

/** How long requests ended by a forced stop get to write their errors before their sockets close. */
export const FORCED_STOP_WRITE_MS = 1_000;

/**
 * On SIGTERM/SIGINT: stop accepting connections, let open requests and streams finish for up to
 * `graceMs`, then run the modules' shutdown hooks (flush the usage ledger, close pools) and exit 0.
 * A later signal ends the drain early, as the end of the grace period does: every request still
 * open is ended with the dialect's error (a stream with its in-stream error) and recorded as
 * `server_shutdown`, then the connections close — but the hooks still run: every request that
 * reached an upstream keeps its ledger row. Only a hook that hangs past the grace period plus ten
 * seconds ends the process without them.
 */
export function installGracefulShutdown(app: INestApplication, server: Server, logger: AppLogger, graceMs: number, adminServer?: Server): void {
  let stoppingSince: number | undefined;
  let cut = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stoppingSince !== undefined) {
      if (cut || Date.now() - stoppingSince < DUPLICATE_SIGNAL_MS) return;
      cut = true;
      logger.warn({ signal }, 'second signal: ending open requests now; the usage ledger is still written');
      endOpenRequests(server);
      return;
    }
    stoppingSince = Date.now();
    logger.info({ signal, graceMs }, 'shutting down: draining open requests');
    setTimeout(() => process.exit(1), graceMs + 10_000).unref();
    // Admin calls are short: the admin port closes at once, the data plane drains.
    adminServer?.close();
    adminServer?.closeAllConnections();
    await drain(server, graceMs);
    await app.close().catch((error: Error) => logger.error({ err: error.message }, 'error during shutdown'));
    logger.info('shutdown complete');
    logger.flush();
    setImmediate(() => process.exit(0));
  };
  process.on('SIGTERM', (s) => void stop(s));
  process.on('SIGINT', (s) => void stop(s));
}

/**
 * Ends every upstream attempt still running with the shutdown error, so each open request writes
 * its error and ends; connections still open after `FORCED_STOP_WRITE_MS` are cut.
 */
function endOpenRequests(server: Server): void {
  serverStop.stop();
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), FORCED_STOP_WRITE_MS).unref();
}

function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Keep-alive sockets with no request in flight would hold close() open for no reason: those
    // idle now, and those a finishing request leaves idle later (kept up to HTTP_KEEP_ALIVE_TIMEOUT_MS).
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    idle.unref();
    const timer = setTimeout(() => endOpenRequests(server), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}
