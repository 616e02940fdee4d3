import { isRecord, pause, sendJson } from '../http-io';
import { openAiEmbeddingsProtocol } from '../protocols/openai-embeddings';
import type { ProtocolModule, SimExchange } from '../protocols/protocol-module';
import { responsesProtocol } from '../protocols/responses';
import { handleAzureChat } from './azure-chat';
import { AZURE_COGNITIVE_SERVICES, bearerToken, checkAccessToken } from './cloud-tokens';
import { rewriteExchange } from './cloud-exchange';

type Operation = 'chat/completions' | 'responses' | 'embeddings';

interface AzureRoute {
  operation: Operation;
  /** The deployment named in a classic path; on the v1 API the body's `model` names it. */
  deployment?: string;
  /** Classic paths need an api-version; the v1 API takes none (or `preview`). */
  classic: boolean;
}

const V1_PATH = /^\/openai\/v1\/(chat\/completions|responses|embeddings)$/;
const DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;
/** Data-plane versions the simulator knows; others get Azure's "not supported". */
export const AZURE_API_VERSIONS: ReadonlySet<string> = new Set([
  '2023-05-15', '2024-02-01', '2024-06-01', '2024-10-21',
  '2024-08-01-preview', '2024-10-01-preview', '2024-12-01-preview', '2025-01-01-preview',
  '2025-03-01-preview', '2025-04-01-preview',
]);
const V1_API_VERSIONS = new Set(['preview', 'latest']);

function azureRoute(pathname: string): AzureRoute | undefined {
  const v1 = V1_PATH.exec(pathname);
  if (v1?.[1]) return { operation: v1[1] as Operation, classic: false };
  if (pathname === '/openai/responses') return { operation: 'responses', classic: true };
  const classic = DEPLOYMENT_PATH.exec(pathname);
  if (!classic?.[1] || !classic[2]) return undefined;
  return { operation: classic[2] as Operation, deployment: decodeURIComponent(classic[1]), classic: true };
}

type Refusal = { status: number; body: unknown };

const azureError = (status: number, code: string, message: string): Refusal => ({ status, body: { error: { code, message } } });

function checkApiVersion(route: AzureRoute, version: string | null): Refusal | undefined {
  if (version === null) return route.classic ? azureError(404, '404', 'Resource not found') : undefined;
  const known = route.classic ? AZURE_API_VERSIONS : V1_API_VERSIONS;
  return known.has(version) ? undefined : azureError(400, 'BadRequest', 'API version not supported');
}

const BAD_KEY =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
const BAD_TOKEN = `Unauthorized. Access token is missing, invalid, audience is incorrect (${AZURE_COGNITIVE_SERVICES}), or have expired.`;

/** Any non-empty `api-key`, or a bearer token a simulator identity server issued for Cognitive Services. */
function checkCredentials(headers: Record<string, string>): Refusal | undefined {
  const key = headers['api-key'];
  if (key !== undefined) return key.trim() === '' ? azureError(401, '401', BAD_KEY) : undefined;
  const token = bearerToken(headers['authorization']);
  if (token === undefined) return azureError(401, '401', BAD_KEY);
  const check = checkAccessToken('azure', token, (resource) => resource === AZURE_COGNITIVE_SERVICES);
  return check.ok ? undefined : azureError(401, '401', BAD_TOKEN);
}

/** A classic path names the deployment in the URL; it is the model the reply reports. */
function bodyFor(exchange: SimExchange, route: AzureRoute): unknown {
  if (route.deployment === undefined || !exchange.body.ok || !isRecord(exchange.body.value)) return undefined;
  return { ...exchange.body.value, model: route.deployment };
}

/**
 * Azure OpenAI: the v1 API (`/openai/v1/...`, model = deployment) and the classic deployment
 * paths with `api-version`. Chat completions get Azure's own rendering; the Responses API and
 * embeddings are answered as OpenAI would once the Azure checks pass.
 */
async function handleAzure(exchange: SimExchange): Promise<void> {
  const route = azureRoute(exchange.url.pathname);
  const refusal = route
    ? (checkApiVersion(route, exchange.url.searchParams.get('api-version')) ?? checkCredentials(exchange.headers))
    : azureError(404, '404', 'Resource not found');
  if (refusal || !route) {
    if (await pause(exchange.settings.latencyMs, exchange.signal)) sendJson(exchange.res, refusal?.status ?? 404, refusal?.body);
    return;
  }
  const delegated = rewriteExchange(exchange, {
    path: `/v1/${route.operation}`,
    headers: { authorization: 'Bearer azure-credential-checked' },
    body: bodyFor(exchange, route),
  });
  if (route.operation === 'chat/completions') return handleAzureChat(delegated);
  if (route.operation === 'responses') return responsesProtocol.handle(delegated);
  return openAiEmbeddingsProtocol.handle(delegated);
}

export const azureOpenAiProtocol: ProtocolModule = {
  protocol: 'azure-openai',
  handles: (_method, pathname) => pathname.startsWith('/openai/'),
  handle: handleAzure,
};
