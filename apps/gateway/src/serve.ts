import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AdminTokenService } from '@rosetta/admin';
import { DataPlane, sendError } from '@rosetta/dialects';
import { GatewayError } from '@rosetta/canonical';
import { dialectForPath } from '@rosetta/protocols/dialects';
import { isAdminSurface, isProbe, NestPinoLogger, originFormPath, newRequestId, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module';
import type { Banner } from './banner';
import { installGracefulShutdown } from './graceful-shutdown';
import { accessLogMiddleware, jsonBodyMiddleware, requestIdMiddleware } from './http-middleware';

/**
 * The gateway in this process: Nest's application with the data plane ahead of it, on PORT (and
 * ADMIN_PORT), draining on SIGTERM. `ready` gets the start banner once both ports listen.
 */
export async function serve(config: RosettaConfig, logger: AppLogger, ready: (banner: Banner) => void): Promise<void> {
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
  const ports: Ports = {};
  const handlers = installDataPlane(app.getHttpServer() as Server, app.get(DataPlane), config.adminPort === undefined ? undefined : ports);
  keepAlive(app.getHttpServer() as Server, config);
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  ports.data = port;
  const adminServer = config.adminPort === undefined ? undefined : await listenAdmin(handlers.express, config, logger, ports);
  if (adminServer) keepAlive(adminServer, config);
  installGracefulShutdown(app, app.getHttpServer(), logger, config.shutdownGraceMs, adminServer);
  logger.info({ port, url: `http://127.0.0.1:${port}` }, 'listening');
  const local = (host: string, at: number): string => `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${at}`;
  const admin = adminServer ? local(config.adminHost ?? config.host, (adminServer.address() as AddressInfo).port) : local(config.host, port);
  ready({ url: local(config.host, port), adminUrl: admin, simulated: config.simulatorMode, generatedToken: app.get(AdminTokenService, { strict: false }).takeGenerated() });
}

/**
 * Every client-facing route is answered by the data plane before Express sees it
 * (docs/decisions/0005, 0006); the rest (admin, docs, metrics, probes, 404s) goes on to Nest.
 */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The ports both listeners actually took (PORT=0 and ADMIN_PORT=0 pick free ones), filled in as
 * each starts listening: a 404 for a path served on the other port names that port's number.
 */
interface Ports {
  data?: number;
  admin?: number;
}

/** `NAME (8080)`, or just the variable's name before that listener has started. */
function portLabel(name: string, port: number | undefined): string {
  return port === undefined ? name : `${name} (${port})`;
}

function installDataPlane(server: Server, dataPlane: DataPlane, adminElsewhere: Ports | undefined): { express: Handler } {
  const nest = server.listeners('request') as Handler[];
  if (nest.length !== 1) throw new Error(`expected one request handler on the HTTP server, found ${nest.length}`);
  const express = nest[0]!;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = originFormPath(req.url ?? '');
    if (path === undefined) return refuseTarget(req, res);
    if (dataPlane.handle(req, res)) return;
    if (adminElsewhere && isAdminSurface(path)) {
      const why = `the admin surface is served on ${portLabel('ADMIN_PORT', adminElsewhere.admin)}, not on the data-plane port ${portLabel('PORT', adminElsewhere.data)}`;
      return notHere(req, res, path, why);
    }
    express(req, res);
  });
  return { express };
}

/**
 * ADMIN_PORT: a second listener on the same application that serves only the admin surface (and
 * the probes); the data-plane port answers those paths 404, so an ingress forwarding it exposes
 * nothing else.
 */
async function listenAdmin(express: Handler, config: RosettaConfig, logger: AppLogger, ports: Ports): Promise<Server> {
  const server = createServer((req, res) => {
    const path = originFormPath(req.url ?? '');
    if (path === undefined) refuseTarget(req, res);
    else if (isAdminSurface(path) || isProbe(path)) express(req, res);
    else notHere(req, res, path, `this is the admin port, ${portLabel('ADMIN_PORT', ports.admin)}: the data plane is on ${portLabel('PORT', ports.data)}`);
  });
  const host = config.adminHost ?? config.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.adminPort, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  ports.admin = port;
  logger.info({ port, host }, 'admin surface listening');
  return server;
}

/**
 * Idle client connections are kept longer than the load balancer in front keeps its own (AWS's
 * 60 s, ingress-nginx's 60 s upstream keep-alive): with Node's default 5 s the gateway closes a
 * connection the balancer is just reusing, and that request fails (502 at the balancer,
 * ECONNRESET at a direct client). Headers must then be allowed at least as long.
 */
function keepAlive(server: Server, config: RosettaConfig): void {
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = Math.max(server.headersTimeout, config.keepAliveTimeoutMs + 1000);
}

function notHere(req: IncomingMessage, res: ServerResponse, path: string, why: string): void {
  const id = newRequestId();
  res.setHeader('x-request-id', id);
  sendError(res, dialectForPath(path), new GatewayError('not_found_error', `Unknown route: ${req.method} ${path}; ${why}`), id);
}

/**
 * Both ports classify and route by the same path, so a target whose path is ambiguous is refused
 * (originFormPath), in the dialect of the route it seems to be for: the client's SDK reads it.
 */
function refuseTarget(req: IncomingMessage, res: ServerResponse): void {
  const id = newRequestId();
  res.setHeader('x-request-id', id);
  const message = 'Invalid request target: it must be a path such as /v1/chat/completions (origin form), without a scheme and host, a fragment or whitespace';
  sendError(res, dialectForPath(guessPath(req.url ?? '')), new GatewayError('invalid_request_error', message), id);
}

function guessPath(target: string): string {
  try {
    return new URL(target, 'http://localhost').pathname;
  } catch {
    return '/';
  }
}
