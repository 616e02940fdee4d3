import { AzureAdToken } from './azure-ad-token';
import { credentialFailure, type UpstreamCredential } from './upstream-credential';

/** How a provider is reached through a cloud platform (ARCHITECTURE §9); absent for the public APIs. */
export type PlatformTarget = { kind: 'azure'; apiVersion?: string; auth: 'api-key' | 'azure-ad' };

/** One Entra ID token source per provider for the whole process: every replica worker shares its cache. */
const azureTokens = new Map<string, UpstreamCredential>();

function azureToken(provider: string): UpstreamCredential {
  let token = azureTokens.get(provider);
  if (!token) azureTokens.set(provider, (token = new AzureAdToken()));
  return token;
}

/**
 * The URL and headers of one call through a platform, from the ones the protocol would send to
 * its public API. Azure OpenAI:
 * - `base_url` is the resource (`https://NAME.openai.azure.com`); without `api_version` the v1
 *   API (`/openai/v1/chat/completions`, `/responses`, `/embeddings`, the deployment as `model`);
 *   with it, the deployment's own path and `?api-version=`;
 * - the key goes in `api-key`, or (`auth: azure-ad`) an Entra ID bearer token replaces it.
 */
export async function platformRequest(input: {
  provider: string;
  platform: PlatformTarget;
  baseUrl: string;
  upstreamModel: string;
  /** The protocol's path under its base (`/chat/completions`, `/responses`, `/embeddings`). */
  path: string;
  apiKey: string;
  headers: Record<string, string>;
}): Promise<{ url: string; headers: Record<string, string> }> {
  const { platform, baseUrl, path, upstreamModel } = input;
  const { authorization: _public, ...headers } = input.headers;
  const url = platform.apiVersion === undefined
    ? `${baseUrl}/openai/v1${path}`
    : path === '/responses'
      ? `${baseUrl}/openai/responses?api-version=${encodeURIComponent(platform.apiVersion)}`
      : `${baseUrl}/openai/deployments/${encodeURIComponent(upstreamModel)}${path}?api-version=${encodeURIComponent(platform.apiVersion)}`;
  if (platform.auth === 'api-key') return { url, headers: { ...headers, 'api-key': input.apiKey } };
  const credential = azureToken(input.provider);
  try {
    return { url, headers: { ...headers, ...(await credential.headers({ method: 'POST', url, headers, body: '' })) } };
  } catch (error) {
    throw credentialFailure(input.provider, credential.describe, error);
  }
}
