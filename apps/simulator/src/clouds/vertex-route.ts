import { geminiError } from '../protocols/gemini-response';
import type { SimExchange } from '../protocols/protocol-module';
import { bearerToken, checkAccessToken, GOOGLE_CLOUD_PLATFORM_SCOPE } from './cloud-tokens';

/** v1beta1 is what @google/genai sends with `vertexai: true`; v1 is the documented GA path. */
const VERTEX_PATH = /^\/(v1|v1beta1)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/]+):([A-Za-z]+)$/;

export interface VertexRoute {
  version: string;
  project: string;
  location: string;
  publisher: 'google' | 'anthropic';
  model: string;
  method: string;
}

export function vertexRoute(pathname: string): VertexRoute | undefined {
  const match = VERTEX_PATH.exec(pathname);
  if (!match) return undefined;
  const [, version = '', project = '', location = '', publisher, model = '', method = ''] = match;
  let decoded = model;
  try {
    decoded = decodeURIComponent(model);
  } catch {
    // A bad escape stays as sent; the model name is echoed, never trusted.
  }
  return { version, project, location, publisher: publisher === 'anthropic' ? 'anthropic' : 'google', model: decoded, method };
}

const INVALID_CREDENTIALS =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';
const MISSING_CREDENTIALS =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

function errorInfo(reason: string): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata: { service: 'aiplatform.googleapis.com' } };
}

export interface VertexRefusal {
  status: number;
  body: unknown;
}

function refusal(status: number, message: string, reason: string): VertexRefusal {
  const base = geminiError(status, message, status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED');
  return { status, body: { error: { ...base.error, details: [errorInfo(reason)] } } };
}

/**
 * Vertex accepts only an OAuth2 bearer token issued by a simulator token server, unexpired and
 * with the cloud-platform scope; refusals come from Google's front end, so they are in Google's
 * error shape whichever publisher the model belongs to.
 */
export function checkVertexCredentials(exchange: SimExchange): VertexRefusal | undefined {
  const token = bearerToken(exchange.headers['authorization']);
  if (token === undefined) return refusal(401, MISSING_CREDENTIALS, 'CREDENTIALS_MISSING');
  const check = checkAccessToken('google', token, (scopes) => scopes.split(' ').includes(GOOGLE_CLOUD_PLATFORM_SCOPE));
  if (check.ok) return undefined;
  if (check.reason === 'expired') return refusal(401, INVALID_CREDENTIALS, 'ACCESS_TOKEN_EXPIRED');
  if (check.reason === 'audience') return refusal(403, 'Request had insufficient authentication scopes.', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT');
  return refusal(401, INVALID_CREDENTIALS, 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
}
