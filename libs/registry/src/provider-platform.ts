import { GatewayError } from '@rosetta/canonical';
import type { ProviderEntryDto } from './provider-entry.dto';
import type { ProviderPlatform } from './registry-records';

/** The protocols Azure OpenAI speaks. */
const AZURE_PROTOCOLS = ['openai', 'openai-responses'];

/**
 * A provider entry's cloud platform (ARCHITECTURE §9), checked before anything is written: Azure
 * OpenAI needs its resource as `base_url` and speaks OpenAI's protocols; its settings make sense
 * only with it. Bedrock and Vertex are refused until this version can call them.
 */
export function providerPlatform(entry: ProviderEntryDto): ProviderPlatform | null {
  const where = `Provider '${entry.slug}'`;
  if (entry.platform === undefined) {
    for (const field of ['api_version', 'auth'] as const) {
      if (entry[field] !== undefined) throw GatewayError.invalidRequest(`${where}: ${field} applies only with platform: azure`, field);
    }
    return null;
  }
  if (entry.platform !== 'azure') {
    throw GatewayError.invalidRequest(`${where}: platform '${entry.platform}' is not available in this version; azure is (Bedrock and Vertex are being added)`, 'platform');
  }
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
