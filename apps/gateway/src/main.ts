import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ChatLane } from '@rosetta/dialects';
import { ConfigError, createLogger, loadConfig, NestPinoLogger, type RosettaConfig } from '@rosetta/platform';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module';
import { installGracefulShutdown } from './graceful-shutdown';
import { accessLogMiddleware, jsonBodyMiddleware, requestIdMiddleware } from './http-middleware';

function readConfig(): RosettaConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`rosetta: invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function bootstrap(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logger), {
    bodyParser: false,
    logger: new NestPinoLogger(logger),
  });
  const express = app.getHttpAdapter().getInstance();
  express.disable('x-powered-by');
  express.set('etag', false);
  app.use(requestIdMiddleware);
  app.use(accessLogMiddleware(logger));
  app.use(jsonBodyMiddleware(config.bodyLimitBytes));
  installChatLane(app.getHttpServer() as Server, app.get(ChatLane));
  await app.listen(config.port, config.host);
  installGracefulShutdown(app, app.getHttpServer(), logger, config.shutdownGraceMs);
  const { port } = app.getHttpServer().address() as AddressInfo;
  logger.info({ port, url: `http://127.0.0.1:${port}` }, 'listening');
  if (config.simulatorMode) announceSimulator(port);
}

/**
 * The chat endpoints are answered by the chat lane before Express sees them (the hot path,
 * docs/decisions/0005); every other request goes on to Nest's Express handler as before.
 */
function installChatLane(server: Server, lane: ChatLane): void {
  const nest = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (nest.length !== 1) throw new Error(`expected one request handler on the HTTP server, found ${nest.length}`);
  const express = nest[0]!;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!lane.handle(req, res)) express(req, res);
  });
}

function announceSimulator(port: number): void {
  process.stderr.write(
    `\n  *** No upstream credentials were configured: Rosetta is routing every model to the bundled SIMULATOR. ***\n` +
      `  *** Replies are simulated. Set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY for real models. ***\n` +
      `  Gateway: http://127.0.0.1:${port}\n\n`,
  );
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`rosetta: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
