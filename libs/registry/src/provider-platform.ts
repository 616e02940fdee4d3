import { GatewayError } from '@rosetta/canonical';
import type { ProviderEntryDto } from './provider-entry.dto';
import type { ProviderPlatform } from './registry-records';

const AZURE_PROTOCOLS = ['openai', 'openai-responses'];
const VERTEX_PROTOCOLS = ['gemini', 'anthropic'];
const AZURE_FIELDS = ['api_version', 'auth'] as const;
const VERTEX_FIELDS = ['project', 'location'] as const;

/**
 * A provider entry's cloud platform (ARCHITECTURE §9), checked before anything is written: each
 * platform's protocols, required settings, and settings that make sense only with it. Bedrock is
 * refused until this version can call it.
 */
export function providerPlatform(entry: ProviderEntryDto): ProviderPlatform | null {
  const where = `Provider '${entry.slug}'`;
  const stray = (fields: readonly (keyof ProviderEntryDto)[], only: string): void => {
    for (const field of fields) if (entry[field] !== undefined) throw GatewayError.invalidRequest(`${where}: ${field} applies only with platform: ${only}`, field);
  };
  if (entry.platform !== 'azure') stray(AZURE_FIELDS, 'azure');
  if (entry.platform !== 'vertex') stray(VERTEX_FIELDS, 'vertex');
  if (entry.platform === undefined) return null;
  if (entry.platform === 'azure') return azure(entry, where);
  if (entry.platform === 'vertex') return vertex(entry, where);
  throw GatewayError.invalidRequest(`${where}: platform '${entry.platform}' is not available in this version; azure and vertex are (Bedrock is being added)`, 'platform');
}

function azure(entry: ProviderEntryDto, where: string): ProviderPlatform {
  if (!AZURE_PROTOCOLS.includes(entry.protocol)) {
    throw GatewayError.invalidRequest(`${where}: Azure OpenAI speaks protocol openai (chat and embeddings) or openai-responses, not '${entry.protocol}'`, 'protocol');
  }
  if (!entry.base_url) {
    throw GatewayError.invalidRequest(`${where}: base_url is required with platform: azure — the resource, e.g. https://NAME.openai.azure.com`, 'base_url');
  }
  const auth = entry.auth === 'azure-ad' ? 'azure-ad' : 'api-key';
  if (auth === 'azure-ad' && (entry.api_key != null || entry.api_key_env !== undefined)) {
    throw GatewayError.invalidRequest(`${where}: auth: azure-ad signs in with Entra ID and takes no api_key or api_key_env`, 'auth');
  }
  return { kind: 'azure', auth, ...(entry.api_version ? { apiVersion: entry.api_version } : {}) };
}

function vertex(entry: ProviderEntryDto, where: string): ProviderPlatform {
  if (!VERTEX_PROTOCOLS.includes(entry.protocol)) {
    throw GatewayError.invalidRequest(`${where}: Vertex AI serves protocol gemini (Gemini) or anthropic (Claude), not '${entry.protocol}'`, 'protocol');
  }
  for (const field of VERTEX_FIELDS) {
    if (!entry[field]) throw GatewayError.invalidRequest(`${where}: ${field} is required with platform: vertex (e.g. project: my-project, location: us-east5 or global)`, field);
  }
  if (entry.api_key != null || entry.api_key_env !== undefined) {
    throw GatewayError.invalidRequest(`${where}: Vertex AI signs in with Application Default Credentials and takes no api_key or api_key_env`, 'api_key');
  }
  if ((entry.endpoints ?? []).some((e) => e.kind === 'embedding')) {
    throw GatewayError.invalidRequest(`${where}: embedding models on Vertex AI are not available in this version`, 'endpoints');
  }
  return { kind: 'vertex', project: entry.project!, location: entry.location! };
}

/** Where a platform provider is reached when its entry names no base_url. */
export function platformBaseUrl(platform: ProviderPlatform | null | undefined): string | null {
  if (platform?.kind !== 'vertex') return null;
  return platform.location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${platform.location}-aiplatform.googleapis.com`;
}
