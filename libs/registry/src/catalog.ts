import type { ProtocolId } from '@rosetta/canonical';

/**
 * The seed catalog. Prices are USD per token as strings (the registry's convention); limits are
 * tokens. Sources, read 2026-11: OpenAI pricing and model pages (gpt-4o-mini: $0.15/M in,
 * $0.60/M out, 128k context, 16,384 output); Anthropic models overview (claude-haiku-4-5:
 * $1/M in, $5/M out, 200k context, 64k output); Google AI pricing and model pages
 * (gemini-2.5-flash: $0.30/M in, $2.50/M out, 1,048,576 context, 65,536 output).
 */
export interface CatalogPricing {
  prompt: string;
  completion: string;
  request?: string;
  image?: string;
}

export interface CatalogEndpoint {
  provider: string;
  protocol: ProtocolId;
  upstreamModel: string;
  contextLength: number;
  maxCompletionTokens: number;
  pricing: CatalogPricing;
}

export interface CatalogModel {
  /** The name after the namespace: `gpt-4o-mini` for `rosetta/gpt-4o-mini`. */
  name: string;
  displayName: string;
  author: string;
  description: string;
  createdAt: string;
  endpoints: CatalogEndpoint[];
}

export const AUTO_MODEL_NAME = 'auto';

export const SEED_CATALOG: readonly CatalogModel[] = [
  {
    name: 'gpt-4o-mini',
    displayName: 'GPT-4o mini',
    author: 'openai',
    description: "OpenAI's small, fast multimodal model.",
    createdAt: '2024-07-18T00:00:00Z',
    endpoints: [
      {
        provider: 'openai',
        protocol: 'openai',
        upstreamModel: 'gpt-4o-mini',
        contextLength: 128_000,
        maxCompletionTokens: 16_384,
        pricing: { prompt: '0.00000015', completion: '0.0000006' },
      },
    ],
  },
  {
    name: 'claude-haiku-4-5',
    displayName: 'Claude Haiku 4.5',
    author: 'anthropic',
    description: "Anthropic's fastest model with near-frontier intelligence.",
    createdAt: '2025-10-15T00:00:00Z',
    endpoints: [
      {
        provider: 'anthropic',
        protocol: 'anthropic',
        upstreamModel: 'claude-haiku-4-5',
        contextLength: 200_000,
        maxCompletionTokens: 64_000,
        pricing: { prompt: '0.000001', completion: '0.000005' },
      },
    ],
  },
  {
    name: 'gemini-2.5-flash',
    displayName: 'Gemini 2.5 Flash',
    author: 'google',
    description: "Google's price-performance model with thinking.",
    createdAt: '2025-06-17T00:00:00Z',
    endpoints: [
      {
        provider: 'gemini',
        protocol: 'gemini',
        upstreamModel: 'gemini-2.5-flash',
        contextLength: 1_048_576,
        maxCompletionTokens: 65_536,
        pricing: { prompt: '0.0000003', completion: '0.0000025' },
      },
    ],
  },
];
