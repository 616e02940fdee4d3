import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AdminTokenService } from '@rosetta/admin';
import { DataPlane, sendError } from '@rosetta/dialects';
import { GatewayError } from '@rosetta/canonical';
import { dialectForPath } from '@rosetta/protocols/dialects';
import { ConfigError, createLogger, isAdminSurface, isProbe, loadConfig, NestPinoLogger, newRequestId, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
  const handlers = installDataPlane(app.getHttpServer() as Server, app.get(DataPlane), config.adminPort !== undefined);
  await app.listen(config.port, config.host);
  const adminServer = config.adminPort === undefined ? undefined : await listenAdmin(handlers.express, config, logger);
  installGracefulShutdown(app, app.getHttpServer(), logger, config.shutdownGraceMs, adminServer);
  const { port } = app.getHttpServer().address() as AddressInfo;
  logger.info({ port, url: `http://127.0.0.1:${port}` }, 'listening');
  const local = (host: string, at: number): string => `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${at}`;
  const admin = adminServer ? local(config.adminHost ?? config.host, (adminServer.address() as AddressInfo).port) : local(config.host, port);
  announce(local(config.host, port), admin, config.simulatorMode, app.get(AdminTokenService, { strict: false }).takeGenerated());
}

/**
 * Every client-facing route is answered by the data plane before Express sees it
 * (docs/decisions/0005, 0006); the rest (admin, docs, metrics, probes, 404s) goes on to Nest.
 */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function installDataPlane(server: Server, dataPlane: DataPlane, adminElsewhere: boolean): { express: Handler } {
  const nest = server.listeners('request') as Handler[];
  if (nest.length !== 1) throw new Error(`expected one request handler on the HTTP server, found ${nest.length}`);
  const express = nest[0]!;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (dataPlane.handle(req, res)) return;
    if (adminElsewhere && isAdminSurface(pathOf(req))) return notHere(req, res, 'the admin surface is served on ADMIN_PORT, not on the data-plane port');
    express(req, res);
  });
  return { express };
}

/**
 * ADMIN_PORT: a second listener on the same application that serves only the admin surface (and
 * the probes); the data-plane port answers those paths 404, so an ingress forwarding it exposes
 * nothing else.
 */
async function listenAdmin(express: Handler, config: RosettaConfig, logger: AppLogger): Promise<Server> {
  const server = createServer((req, res) => {
    const path = pathOf(req);
    if (isAdminSurface(path) || isProbe(path)) express(req, res);
    else notHere(req, res, 'this is the admin port: the data plane is on PORT');
  });
  const host = config.adminHost ?? config.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.adminPort, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host }, 'admin surface listening');
  return server;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  return mark < 0 ? url : url.slice(0, mark);
}

function notHere(req: IncomingMessage, res: ServerResponse, why: string): void {
  const id = newRequestId();
  res.setHeader('x-request-id', id);
  const path = pathOf(req);
  sendError(res, dialectForPath(path), new GatewayError('not_found_error', `Unknown route: ${req.method} ${path}; ${why}`), id);
}

/**
 * The start banner, on stderr (never the structured log): where the gateway and its dashboard
 * are, whether replies are simulated, and — on the first start without ADMIN_TOKEN — the
 * generated token, shown only this once, with what to do with it.
 */
function announce(url: string, adminUrl: string, simulated: boolean, generatedToken: string | undefined): void {
  let text = '';
  if (simulated) {
    text +=
      `\n  *** No upstream credentials were configured: Rosetta is routing every model to the bundled SIMULATOR. ***\n` +
      `  *** Replies are simulated. Set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY for real models. ***\n`;
  }
  if (generatedToken) {
    text +=
      `\n  ADMIN_TOKEN was not set, so Rosetta generated one. It is shown only this once:\n\n` +
      `      ${generatedToken}\n\n` +
      `  Sign in to the dashboard with it at ${adminUrl}/dashboard to issue keys and watch usage,\n` +
      `  or create an API key from a terminal (in another one) and use it:\n` +
      `      export ROSETTA_URL=${adminUrl} ADMIN_TOKEN=${generatedToken}\n` +
      `      npm run admin -- keys create --plan pro --name me\n` +
      `      export ROSETTA_KEY=rsk_...        # the "key" of that response\n`;
  }
  process.stderr.write(`${text}\n  Gateway:   ${url}\n  Dashboard: ${adminUrl}/dashboard (sign in with the admin token)\n\n`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`rosetta: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
