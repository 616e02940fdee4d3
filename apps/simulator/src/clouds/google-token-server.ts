import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { isRecord } from '../http-io';
import { GOOGLE_CLOUD_PLATFORM_SCOPE, mintAccessToken } from './cloud-tokens';
import { sendJsonBody, sendText, startLoopbackServer } from './loopback-server';

export interface GoogleTokenServerOptions {
  /** Lifetime of every issued token; default 3600 s. */
  expiresInSeconds?: number;
  /** Answered at /computeMetadata/v1/project/project-id; default `sim-project`. */
  projectId?: string;
  /** The instance's default service account; default `sim-vm@sim-project.iam.gserviceaccount.com`. */
  serviceAccountEmail?: string;
  /** Service accounts whose JWT assertions /token accepts: client_email → public key (PEM). */
  serviceAccounts?: Record<string, string>;
}

export interface IssuedGoogleToken {
  via: 'metadata' | 'jwt-bearer';
  /** The service account the token was issued to. */
  subject: string;
  scopes: string[];
  accessToken: string;
}

export interface RunningGoogleTokenServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** 127.0.0.1:PORT, the value for GCE_METADATA_HOST. */
  metadataHost: string;
  /** The OAuth token endpoint for service-account JWT bearer grants. */
  tokenUri: string;
  /** Tokens issued so far, oldest first. */
  issued(): IssuedGoogleToken[];
  close(): Promise<void>;
}

const METADATA = '/computeMetadata/v1/';
const FLAVOR = { 'metadata-flavor': 'Google' };
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';

interface State {
  options: Required<Omit<GoogleTokenServerOptions, 'serviceAccounts'>>;
  keys: Map<string, KeyObject>;
  issued: IssuedGoogleToken[];
}

function issue(state: State, via: IssuedGoogleToken['via'], subject: string, scopes: string[]): Record<string, unknown> {
  const granted = scopes.length > 0 ? scopes : [GOOGLE_CLOUD_PLATFORM_SCOPE];
  const accessToken = mintAccessToken('google', granted.join(' '), state.options.expiresInSeconds);
  state.issued.push({ via, subject, scopes: granted, accessToken });
  return { access_token: accessToken, expires_in: state.options.expiresInSeconds, token_type: 'Bearer' };
}

/** The GCE metadata server as gcp-metadata uses it; every answer carries Metadata-Flavor: Google. */
function metadata(state: State, req: IncomingMessage, url: URL, res: ServerResponse): void {
  if (req.headers['metadata-flavor'] !== 'Google') {
    return sendText(res, 403, 'Missing required header: Metadata-Flavor\n', FLAVOR);
  }
  const key = url.pathname.slice(METADATA.length).replace(/\/+$/, '');
  const account = /^instance\/service-accounts\/([^/]+)\/(token|email)$/.exec(key);
  if (account?.[1] === 'default' || account?.[1] === state.options.serviceAccountEmail) {
    if (account[2] === 'email') return sendText(res, 200, state.options.serviceAccountEmail, FLAVOR);
    const scopes = (url.searchParams.get('scopes') ?? '').split(',').filter((scope) => scope !== '');
    return sendJsonBody(res, 200, issue(state, 'metadata', state.options.serviceAccountEmail, scopes), FLAVOR);
  }
  switch (key) {
    case 'instance':
      return sendText(res, 200, 'attributes/\nhostname\nid\nservice-accounts/\nzone\n', FLAVOR);
    case 'project/project-id':
      return sendText(res, 200, state.options.projectId, FLAVOR);
    case 'universe/universe-domain':
      return sendText(res, 200, 'googleapis.com', FLAVOR);
    default:
      return sendText(res, 404, `Not Found: ${url.pathname}\n`, FLAVOR);
  }
}

function decodeSegment(segment: string | undefined): unknown {
  try {
    return JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Verifies an RS256 assertion signed by a registered service account; returns why not, or its claims. */
function readAssertion(state: State, assertion: string): { error: string } | { subject: string; scopes: string[] } {
  const [head, body, signature, ...rest] = assertion.split('.');
  const header = decodeSegment(head);
  const claims = decodeSegment(body);
  if (rest.length > 0 || !signature || !isRecord(header) || !isRecord(claims)) return { error: 'Invalid JWT: malformed assertion.' };
  if (header['alg'] !== 'RS256') return { error: `Invalid JWT: alg ${String(header['alg'])} is not RS256.` };
  const issuer = claims['iss'];
  const key = typeof issuer === 'string' ? state.keys.get(issuer) : undefined;
  if (!key || typeof issuer !== 'string') return { error: 'Invalid JWT Signature.' };
  if (!verify('RSA-SHA256', Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url'))) return { error: 'Invalid JWT Signature.' };
  if (claims['aud'] !== GOOGLE_TOKEN_AUDIENCE) return { error: `Invalid JWT: aud must be ${GOOGLE_TOKEN_AUDIENCE}.` };
  if (typeof claims['exp'] !== 'number' || claims['exp'] * 1000 <= Date.now()) return { error: 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.' };
  const scope = typeof claims['scope'] === 'string' ? claims['scope'] : '';
  return { subject: issuer, scopes: scope.split(' ').filter((s) => s !== '') };
}

/** Google's OAuth token endpoint, for the JWT bearer grant a service-account key file makes. */
function token(state: State, req: IncomingMessage, body: string, res: ServerResponse): void {
  if (req.method !== 'POST') return sendJsonBody(res, 405, { error: 'invalid_request', error_description: 'Use POST.' });
  const form = new URLSearchParams(body);
  const grant = form.get('grant_type');
  if (grant !== JWT_BEARER) {
    return sendJsonBody(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grant ?? ''}` });
  }
  const assertion = readAssertion(state, form.get('assertion') ?? '');
  if ('error' in assertion) return sendJsonBody(res, 400, { error: 'invalid_grant', error_description: assertion.error });
  sendJsonBody(res, 200, issue(state, 'jwt-bearer', assertion.subject, assertion.scopes));
}

/** A fake GCE metadata server and OAuth token endpoint on loopback, issuing short-lived tokens. */
export async function startGoogleTokenServer(options: GoogleTokenServerOptions = {}): Promise<RunningGoogleTokenServer> {
  const projectId = options.projectId ?? 'sim-project';
  const state: State = {
    options: {
      expiresInSeconds: options.expiresInSeconds ?? 3600,
      projectId,
      serviceAccountEmail: options.serviceAccountEmail ?? `sim-vm@${projectId}.iam.gserviceaccount.com`,
    },
    keys: new Map(Object.entries(options.serviceAccounts ?? {}).map(([email, pem]) => [email, createPublicKey(pem)])),
    issued: [],
  };
  const server = await startLoopbackServer((req, url, body, res) => {
    if (url.pathname.startsWith(METADATA) || url.pathname === METADATA.slice(0, -1)) return metadata(state, req, url, res);
    if (url.pathname === '/token') return token(state, req, body, res);
    sendText(res, 404, `Not Found: ${url.pathname}\n`);
  });
  return {
    url: server.url,
    metadataHost: server.hostPort,
    tokenUri: `${server.url}/token`,
    issued: () => state.issued.map((entry) => ({ ...entry, scopes: [...entry.scopes] })),
    close: () => server.close(),
  };
}
