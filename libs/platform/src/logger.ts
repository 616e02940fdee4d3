import pino, { type Logger } from 'pino';
import type { LoggerService } from '@nestjs/common';

/**
 * Structured JSON logs, one object per line, written asynchronously so the hot path never blocks
 * on stdout. Never pass keys, tokens, prompts or completions to it.
 */
export type AppLogger = Logger;

/** `worker`: in a node:cluster worker (WORKERS > 1), its number, on every line it writes. */
export function createLogger(level: string, worker?: number): AppLogger {
  return pino(
    {
      level,
      base: worker === undefined ? { service: 'rosetta' } : { service: 'rosetta', worker },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ['apiKey', 'api_key', 'authorization', 'key', '*.apiKey', '*.api_key', '*.authorization'], censor: '[redacted]' },
    },
    pino.destination({ sync: false, minLength: 0 }),
  );
}

/** Routes Nest's own messages into the same structured stream. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: AppLogger) {}

  /** Nest's own start-up chatter (module and route listings) is debug detail, not news. */
  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

export const APP_LOGGER = Symbol('APP_LOGGER');
