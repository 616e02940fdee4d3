import { GatewayError } from '@rosetta/canonical';
import type { ProviderEntryDto } from './provider-entry.dto';
import type { ProviderPlatform } from './registry-records';

const AZURE_PROTOCOLS = ['openai', 'openai-responses'];
const VERTEX_PROTOCOLS = ['gemini', 'anthropic'];
const AZURE_FIELDS = ['api_version', 'auth'] as const;
const VERTEX_FIELDS = ['project', 'location'] as const;
const BEDROCK_PROTOCOLS = ['bedrock-converse', 'anthropic'];
const BEDROCK_FIELDS = ['region'] as const;

/**
 * A provider entry's cloud platform (ARCHITECTURE §9), checked before anything is written: each
 * platform's protocols, required settings, and settings that make sense only with it.
 */
export function providerPlatform(entry: ProviderEntryDto): ProviderPlatform | null {
  const where = `Provider '${entry.slug}'`;
  const stray = (fields: readonly (keyof ProviderEntryDto)[], only: string): void => {
    for (const field of fields) if (entry[field] !== undefined) throw GatewayError.invalidRequest(`${where}: ${field} applies only with platform: ${only}`, field);
  };
  if (entry.platform !== 'azure') stray(AZURE_FIELDS, 'azure');
  if (entry.platform !== 'vertex') stray(VERTEX_FIELDS, 'vertex');
  if (entry.platform !== 'bedrock') stray(BEDROCK_FIELDS, 'bedrock');
  if (entry.platform === undefined) {
    if (entry.protocol === 'bedrock-converse') throw GatewayError.invalidRequest(`${where}: protocol bedrock-converse needs platform: bedrock and a region`, 'platform');
    return null;
  }
  if (entry.platform === 'azure') return azure(entry, where);
  if (entry.platform === 'vertex') return vertex(entry, where);
  return bedrock(entry, where);
}

/**
 * Bedrock: Converse for every model it sells, or Claude's own Messages body through invoke. With
 * `api_key_env` / `api_key` the key is a Bedrock API key (a bearer); without, SigV4 from the AWS
 * default credential chain.
 */
function bedrock(entry: ProviderEntryDto, where: string): ProviderPlatform {
  if (!BEDROCK_PROTOCOLS.includes(entry.protocol)) {
    throw GatewayError.invalidRequest(`${where}: Bedrock speaks protocol bedrock-converse (every model) or anthropic (Claude through invoke), not '${entry.protocol}'`, 'protocol');
  }
  if (!entry.region) throw GatewayError.invalidRequest(`${where}: region is required with platform: bedrock (e.g. region: us-east-1)`, 'region');
  if ((entry.endpoints ?? []).some((e) => e.kind === 'embedding')) {
    throw GatewayError.invalidRequest(`${where}: embedding models on Bedrock are not available in this version`, 'endpoints');
  }
  return { kind: 'bedrock', region: entry.region };
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
  if (platform?.kind === 'bedrock') return `https://bedrock-runtime.${platform.region}.amazonaws.com`;
  if (platform?.kind !== 'vertex') return null;
  return platform.location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${platform.location}-aiplatform.googleapis.com`;
}
