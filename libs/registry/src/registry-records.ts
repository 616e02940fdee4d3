import type { UpstreamProtocolId } from '@rosetta/canonical';
import type { RegistrySource } from './registry.entities';

/** USD per token, as decimal strings (the registry's convention). */
export interface EndpointPricing {
  prompt: string;
  completion: string;
  image?: string;
  request?: string;
  input_cache_read?: string;
  input_cache_write?: string;
}

/** A provider reached through a cloud platform (ARCHITECTURE §9): Azure OpenAI, AWS Bedrock, Google Vertex AI. */
export type ProviderPlatform =
  | {
      kind: 'azure';
      /** Without one, Azure's v1 API; with one, the deployment paths and `?api-version=`. */
      apiVersion?: string;
      /** `api-key` (the provider's key in the `api-key` header) or `azure-ad` (an Entra ID token). */
      auth: 'api-key' | 'azure-ad';
    }
  | {
      /** SigV4 from the AWS default credential chain, or a Bedrock API key as a bearer. */
      kind: 'bedrock';
      region: string;
    }
  | {
      kind: 'vertex';
      project: string;
      /** A region (`us-east5`) or `global`. */
      location: string;
    };

export interface ProviderRecord {
  slug: string;
  protocol: UpstreamProtocolId;
  baseUrl: string | null;
  apiKeyEnv: string | null;
  apiKey: string | null;
  /** A key is stored but cannot be opened (another SECRETS_KEY, another row): not a keyless provider. */
  storedKeyUnreadable?: boolean;
  platform?: ProviderPlatform | null;
  dataCollection: 'allow' | 'deny';
  zdr: boolean;
  builtin: boolean;
  disabled: boolean;
  source: RegistrySource;
}

export interface EndpointRecord {
  provider: string;
  upstreamModel: string;
  quantization: string;
  contextLength: number;
  maxCompletionTokens: number;
  supportsTools: boolean;
  supportsVision: boolean;
  supportsReasoning: boolean;
  pricing: EndpointPricing;
  /** Embedding endpoints: the vector size the upstream model gives (null: unknown). */
  dimensions: number | null;
  /** Embedding endpoints: whether the upstream takes a smaller size (`dimensions` / `outputDimensionality`). */
  customDimensions: boolean;
  disabled: boolean;
  source: RegistrySource;
}

/**
 * An operator's prior for rosetta/auto: P(acceptable answer) on a typical prompt, `default` for
 * every category without its own figure (categories: writing, roleplay, reasoning, math, coding,
 * extraction, stem, humanities). `source` is where it was declared.
 */
export interface RouterPrior {
  quality: { default: number } & Record<string, number>;
  source: RegistrySource;
}

/** What a model does: chat (every dialect's chat routes) or embeddings (`/v1/embeddings`, `:embedContent`). */
export type ModelKind = 'chat' | 'embedding';

export interface ModelRecord {
  /** The database id, the model record's integer `id`. */
  id: number;
  /** The name after the namespace (`gpt-4o-mini`). */
  name: string;
  displayName: string;
  author: string;
  description: string;
  distillable: boolean;
  kind: ModelKind;
  source: RegistrySource;
  /** The declared prior for rosetta/auto, if any. */
  routerPrior: RouterPrior | null;
  createdAt: Date;
  updatedAt: Date;
  endpoints: EndpointRecord[];
}
