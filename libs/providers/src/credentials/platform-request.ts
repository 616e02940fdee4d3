import { EncodedBody, serialise } from '../http-transport';
import { AwsSignature } from './aws-signature';
import { AzureAdToken } from './azure-ad-token';
import { GoogleAccessToken } from './google-access-token';
import { credentialFailure, type UpstreamCredential } from './upstream-credential';

/** How a provider is reached through a cloud platform (ARCHITECTURE §9); absent for the public APIs. */
export type PlatformTarget =
  | { kind: 'azure'; apiVersion?: string; auth: 'api-key' | 'azure-ad' }
  | { kind: 'vertex'; project: string; location: string }
  | { kind: 'bedrock'; region: string };

/** The anthropic_version Claude on Vertex AI takes in the body. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
/** The anthropic_version Claude on Bedrock takes in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * The beta flags Claude on Bedrock takes (AWS's model-parameters page for Claude; Bedrock answers
 * any other flag with 400 "invalid beta flag" and fails the whole request). Claude Code sends
 * several more on every call (`oauth-…`, `mcp-servers-…`, `extended-cache-ttl-…`): they are left
 * out rather than breaking every agent request, as the features they name are not on Bedrock.
 */
const BEDROCK_BETAS = new Set([
  'claude-code-20250219', 'computer-use-2024-10-22', 'computer-use-2025-01-24', 'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14', 'output-128k-2025-02-19', 'dev-full-thinking-2025-05-14', 'context-1m-2025-08-07',
  'context-management-2025-06-27', 'effort-2025-11-24', 'tool-search-tool-2025-10-19', 'tool-examples-2025-10-29',
]);

/**
 * One token source per identity for the whole process — Application Default Credentials, the
 * Entra ID default chain — whatever number of providers use it: its cache serves every call.
 */
const tokens = new Map<string, UpstreamCredential>();

/** The identity a platform's calls authenticate as, or none where a static key is sent. */
function identityOf(platform: PlatformTarget, apiKey: string): string | undefined {
  if (platform.kind === 'vertex') return 'google-adc';
  if (platform.kind === 'azure') return platform.auth === 'azure-ad' ? 'azure-default' : undefined;
  return apiKey === '' ? `aws-sigv4 ${platform.region}` : undefined;
}

/**
 * The upstream refused what a cloud identity gave (an expired or revoked token, rotated AWS keys):
 * the next call fetches fresh credentials instead of waiting for the cached ones to expire.
 */
export function invalidatePlatformCredential(platform: PlatformTarget, apiKey: string): void {
  const identity = identityOf(platform, apiKey);
  if (identity !== undefined) tokens.get(identity)?.invalidate?.();
}

function tokenFor(identity: string, make: () => UpstreamCredential): UpstreamCredential {
  let token = tokens.get(identity);
  if (!token) tokens.set(identity, (token = make()));
  return token;
}

async function bearer(provider: string, credential: UpstreamCredential, url: string, headers: Record<string, string>): Promise<Record<string, string>> {
  try {
    return { ...headers, ...(await credential.headers({ method: 'POST', url, headers, body: '' })) };
  } catch (error) {
    throw credentialFailure(provider, credential.describe, error);
  }
}

/**
 * The URL and headers of one call through a platform, from the ones the protocol would send to
 * its public API. Azure OpenAI:
 * - `base_url` is the resource (`https://NAME.openai.azure.com`); without `api_version` the v1
 *   API (`/openai/v1/chat/completions`, `/responses`, `/embeddings`, the deployment as `model`);
 *   with it, the deployment's own path and `?api-version=`;
 * - the key goes in `api-key`, or (`auth: azure-ad`) an Entra ID bearer token replaces it.
 */
export interface PlatformRequestInput {
  provider: string;
  platform: PlatformTarget;
  baseUrl: string;
  upstreamModel: string;
  /** The protocol's path under its base (`/chat/completions`, `/v1/messages`, `/v1beta/models/m:generateContent`). */
  path: string;
  apiKey: string;
  headers: Record<string, string>;
  /** The encoded request body (an object), for platforms that move fields between body and URL. */
  body?: unknown;
}

export interface PlatformRequest {
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export function platformRequest(input: PlatformRequestInput): Promise<PlatformRequest> {
  const { platform } = input;
  if (platform.kind === 'azure') return azureRequest({ ...input, platform });
  if (platform.kind === 'bedrock') return bedrockRequest({ ...input, platform });
  return vertexRequest({ ...input, platform });
}

/**
 * Bedrock: Converse keeps the codec's own path (`/model/{id}/converse`); Claude's Messages body
 * goes through `invoke` / `invoke-with-response-stream`, without `model` and `stream` (Bedrock
 * refuses extraneous keys), with Bedrock's `anthropic_version` and the client's beta flags that
 * Bedrock knows as `anthropic_beta`. A Bedrock API key is a bearer; without one the request is signed with SigV4,
 * over the exact bytes that are sent.
 */
async function bedrockRequest(input: PlatformRequestInput & { platform: Extract<PlatformTarget, { kind: 'bedrock' }> }): Promise<PlatformRequest> {
  const { platform, baseUrl, path, upstreamModel, body } = input;
  const { 'x-api-key': _anthropic, 'anthropic-version': _version, 'anthropic-beta': beta, authorization: _bearer, ...headers } = input.headers;
  let url = `${baseUrl}${path}`;
  let sent = body;
  if (!path.startsWith('/model/')) {
    const { model: _model, stream, ...rest } = (body ?? {}) as Record<string, unknown>;
    url = `${baseUrl}/model/${encodeURIComponent(upstreamModel)}/${stream === true ? 'invoke-with-response-stream' : 'invoke'}`;
    const betas = beta?.split(',').map((flag) => flag.trim()).filter((flag) => BEDROCK_BETAS.has(flag));
    sent = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...(betas?.length ? { anthropic_beta: betas } : {}), ...rest };
  }
  if (url.endsWith('-stream')) headers['accept'] = 'application/vnd.amazon.eventstream';
  if (input.apiKey !== '') return { url, headers: { ...headers, authorization: `Bearer ${input.apiKey}` }, body: sent };
  const text = serialise(sent);
  const signed = { 'content-type': 'application/json' };
  const credential = tokenFor(identityOf(platform, input.apiKey)!, () => new AwsSignature(platform.region));
  try {
    const signature = await credential.headers({ method: 'POST', url, headers: signed, body: text });
    return { url, headers: { ...headers, ...signed, ...signature }, body: new EncodedBody(text) };
  } catch (error) {
    throw credentialFailure(input.provider, credential.describe, error);
  }
}

/**
 * Vertex AI: the model under the project's publishers, a bearer token from Application Default
 * Credentials. Gemini keeps its body; Claude (`rawPredict` / `streamRawPredict`) names the model
 * only in the URL and its API version in the body.
 */
async function vertexRequest(input: PlatformRequestInput & { platform: Extract<PlatformTarget, { kind: 'vertex' }> }): Promise<PlatformRequest> {
  const { platform, baseUrl, path, upstreamModel, body } = input;
  const { 'x-goog-api-key': _gemini, 'x-api-key': _anthropic, 'anthropic-version': _version, ...headers } = input.headers;
  const base = `${baseUrl}/v1/projects/${encodeURIComponent(platform.project)}/locations/${encodeURIComponent(platform.location)}/publishers`;
  const gemini = /^\/v1beta\/models\/([^:]+):(.+)$/.exec(path);
  let url: string;
  let sent = body;
  if (gemini) {
    url = `${base}/google/models/${gemini[1]}:${gemini[2]}`;
  } else {
    const { model: _model, ...rest } = (body ?? {}) as Record<string, unknown>;
    url = `${base}/anthropic/models/${encodeURIComponent(upstreamModel)}:${rest['stream'] === true ? 'streamRawPredict' : 'rawPredict'}`;
    sent = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
  }
  const credential = tokenFor(identityOf(platform, input.apiKey)!, () => new GoogleAccessToken());
  return { url, headers: await bearer(input.provider, credential, url, headers), body: sent };
}

async function azureRequest(input: PlatformRequestInput & { platform: Extract<PlatformTarget, { kind: 'azure' }> }): Promise<PlatformRequest> {
  const { platform, baseUrl, path, upstreamModel } = input;
  const { authorization: _public, ...headers } = input.headers;
  const url = platform.apiVersion === undefined
    ? `${baseUrl}/openai/v1${path}`
    : path === '/responses'
      ? `${baseUrl}/openai/responses?api-version=${encodeURIComponent(platform.apiVersion)}`
      : `${baseUrl}/openai/deployments/${encodeURIComponent(upstreamModel)}${path}?api-version=${encodeURIComponent(platform.apiVersion)}`;
  if (platform.auth === 'api-key') return { url, headers: { ...headers, 'api-key': input.apiKey }, body: input.body };
  return { url, headers: await bearer(input.provider, tokenFor(identityOf(platform, input.apiKey)!, () => new AzureAdToken()), url, headers), body: input.body };
}
