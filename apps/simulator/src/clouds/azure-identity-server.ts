import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomId } from '../http-io';
import { mintAccessToken } from './cloud-tokens';
import { sendJsonBody, startLoopbackServer } from './loopback-server';

export interface AzureIdentityServerOptions {
  /**
   * Lifetime of every issued token; default 3600 s. A fractional lifetime is reported as an ISO
   * 8601 `expires_on` (which MSAL also accepts), since epoch seconds cannot express it.
   */
  expiresInSeconds?: number;
  /** The secret App Service puts in IDENTITY_HEADER; random when absent. */
  identityHeader?: string;
}

export interface IssuedAzureToken {
  resource: string;
  accessToken: string;
}

export interface RunningAzureIdentityServer {
  /** The value for IDENTITY_ENDPOINT. */
  identityEndpoint: string;
  /** The value for IDENTITY_HEADER. */
  identityHeader: string;
  /** Tokens issued so far, oldest first. */
  issued(): IssuedAzureToken[];
  close(): Promise<void>;
}

const TOKEN_PATH = '/msi/token';
const API_VERSION = '2019-08-01';

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJsonBody(res, status, { statusCode: status, message, correlationId: randomId(16) });
}

/** `https://x/.default` and `https://x/` name the same resource as `https://x`. */
function normaliseResource(resource: string): string {
  return resource.replace(/\/\.default$/, '').replace(/\/+$/, '');
}

/**
 * App Service's managed-identity endpoint as MSAL's AppService source calls it: GET
 * IDENTITY_ENDPOINT?api-version=2019-08-01&resource=R with the X-IDENTITY-HEADER secret.
 */
function tokenRequest(options: Required<AzureIdentityServerOptions>, issued: IssuedAzureToken[], req: IncomingMessage, url: URL, res: ServerResponse): void {
  if (req.method !== 'GET' || url.pathname !== TOKEN_PATH) return refuse(res, 404, `No route ${req.method ?? 'GET'} ${url.pathname}`);
  if (req.headers['x-identity-header'] !== options.identityHeader) return refuse(res, 401, 'The X-IDENTITY-HEADER header is missing or wrong.');
  const version = url.searchParams.get('api-version');
  if (version !== API_VERSION) return refuse(res, 400, `api-version must be ${API_VERSION}, got ${version ?? 'none'}.`);
  const requested = url.searchParams.get('resource');
  if (!requested) return refuse(res, 400, 'The resource query parameter is required.');
  const resource = normaliseResource(requested);
  const now = Date.now();
  const accessToken = mintAccessToken('azure', resource, options.expiresInSeconds, now);
  const expiresOnMs = now + options.expiresInSeconds * 1000;
  issued.push({ resource, accessToken });
  sendJsonBody(res, 200, {
    access_token: accessToken,
    expires_on: Number.isInteger(options.expiresInSeconds) ? String(Math.floor(expiresOnMs / 1000)) : new Date(expiresOnMs).toISOString(),
    resource,
    token_type: 'Bearer',
    client_id: '00000000-0000-0000-0000-00000000a5e1',
  });
}

/** A fake Azure App Service managed-identity endpoint on loopback, issuing short-lived tokens. */
export async function startAzureIdentityServer(options: AzureIdentityServerOptions = {}): Promise<RunningAzureIdentityServer> {
  const resolved = { expiresInSeconds: options.expiresInSeconds ?? 3600, identityHeader: options.identityHeader ?? randomId(32) };
  const issued: IssuedAzureToken[] = [];
  const server = await startLoopbackServer((req, url, _body, res) => tokenRequest(resolved, issued, req, url, res));
  return {
    identityEndpoint: `${server.url}${TOKEN_PATH}`,
    identityHeader: resolved.identityHeader,
    issued: () => issued.map((entry) => ({ ...entry })),
    close: () => server.close(),
  };
}
