import type { Provider } from './types';

/** Where a provider's models are reached: `''` is any server with OpenAI's API, the rest are clouds (ARCHITECTURE §9). */
export type PlatformId = '' | 'azure' | 'bedrock' | 'vertex';

export interface ProtocolChoice {
  id: string;
  label: string;
  /** Where requests go with it, in the words of the Base URL hints (for the platforms that offer a choice). */
  hint?: string;
}

interface PlatformSpec {
  label: string;
  hint: string;
  /** The wire protocols the form offers on the platform; the first is the default. */
  protocols: readonly [ProtocolChoice, ...ProtocolChoice[]];
  /** What the endpoint rows call `upstream_model` there, and an example of one per protocol. */
  upstreamLabel: string;
  upstreamExample: (protocol: string) => string;
}

const OPENAI: ProtocolChoice = { id: 'openai', label: 'OpenAI Chat Completions' };

export const PLATFORMS: Record<PlatformId, PlatformSpec> = {
  '': { label: 'OpenAI-compatible server', hint: 'Any server with OpenAI’s API', protocols: [OPENAI], upstreamLabel: 'Upstream model', upstreamExample: () => 'meta-llama/Llama-3.1-8B-Instruct' },
  azure: { label: 'Azure OpenAI', hint: 'Azure OpenAI: the base URL is the resource', protocols: [OPENAI], upstreamLabel: 'Deployment', upstreamExample: () => 'gpt-4o-prod' },
  bedrock: {
    label: 'AWS Bedrock',
    hint: 'Signed with the gateway’s AWS credentials, or a Bedrock API key',
    protocols: [
      { id: 'bedrock-converse', label: 'Converse — every Bedrock model', hint: 'Bedrock’s one API for all its models: {base}/model/{id}/converse' },
      { id: 'anthropic', label: 'Anthropic Messages — Claude through invoke', hint: 'Claude’s own Messages body: {base}/model/{id}/invoke' },
    ],
    upstreamLabel: 'Bedrock model id',
    upstreamExample: () => 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
  },
  vertex: {
    label: 'Google Vertex AI',
    hint: 'Signs in with the gateway’s Application Default Credentials: no key',
    protocols: [
      { id: 'gemini', label: 'Gemini', hint: 'Google’s models: …/publishers/google/models/{id}:generateContent' },
      { id: 'anthropic', label: 'Claude', hint: 'Claude on Vertex: …/publishers/anthropic/models/{id}:rawPredict' },
    ],
    upstreamLabel: 'Vertex model id',
    upstreamExample: (protocol) => (protocol === 'anthropic' ? 'claude-sonnet-4-5@20250929' : 'gemini-2.5-flash'),
  },
};

const isPlatform = (value: string): value is PlatformId => Object.hasOwn(PLATFORMS, value);

/** The provider settings the form edits; every field is text as typed, trimmed only when sent. */
export interface ProviderDraft {
  platform: PlatformId;
  protocol: string;
  baseUrl: string;
  apiKey: string;
  apiVersion: string;
  entra: boolean;
  region: string;
  project: string;
  location: string;
}

/**
 * The URL a Bedrock or Vertex provider is called at when it names none, as the gateway derives it
 * (libs/registry provider-platform.ts). The form needs it to tell a stored default from a chosen
 * endpoint: the admin API answers the address in use either way.
 */
export function defaultBaseUrl(draft: Pick<ProviderDraft, 'platform' | 'region' | 'location'>): string | undefined {
  if (draft.platform === 'bedrock') return `https://bedrock-runtime.${draft.region.trim() || '{region}'}.amazonaws.com`;
  if (draft.platform !== 'vertex') return undefined;
  const location = draft.location.trim();
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location || '{location}'}-aiplatform.googleapis.com`;
}

/** A blank draft for a new provider, or an existing one's settings (never its key, which the API does not show). */
export function draftOf(provider?: Provider): ProviderDraft {
  const platform = provider?.platform && isPlatform(provider.platform) ? provider.platform : '';
  const draft: ProviderDraft = {
    platform,
    protocol: provider?.protocol ?? PLATFORMS[platform].protocols[0].id,
    baseUrl: provider?.base_url ?? '',
    apiKey: '',
    apiVersion: provider?.api_version ?? '',
    entra: provider?.auth === 'azure-ad',
    region: provider?.region ?? '',
    project: provider?.project ?? '',
    location: provider?.location ?? '',
  };
  // Shown empty, so that saving keeps following the region (or location) rather than pinning today's URL.
  return draft.baseUrl === defaultBaseUrl(draft) ? { ...draft, baseUrl: '' } : draft;
}

/** The settings after a change of platform: its default protocol; what was typed stays, and only the platform's own fields are sent. */
export function withPlatform(draft: ProviderDraft, platform: PlatformId): ProviderDraft {
  return { ...draft, platform, protocol: PLATFORMS[platform].protocols[0].id };
}

const present = (name: string, text: string): Record<string, string> => (text.trim() ? { [name]: text.trim() } : {});

/**
 * The provider part of PUT /admin/providers/{slug}. A required setting left empty is left out, so
 * the gateway's message says it is required (beside its field) rather than that '' is malformed.
 */
export function providerBody(draft: ProviderDraft): Record<string, unknown> {
  const { platform } = draft;
  if (platform === 'bedrock') {
    return { platform, protocol: draft.protocol, ...present('region', draft.region), ...present('base_url', draft.baseUrl), ...present('api_key', draft.apiKey) };
  }
  if (platform === 'vertex') {
    return { platform, protocol: draft.protocol, ...present('project', draft.project), ...present('location', draft.location), ...present('base_url', draft.baseUrl) };
  }
  // An OpenAI-compatible server or Azure: the base URL is the server or the resource, always sent.
  const base = { protocol: draft.protocol, base_url: draft.baseUrl.trim() };
  if (platform === '') return { ...base, ...present('api_key', draft.apiKey) };
  return { ...base, platform, ...present('api_version', draft.apiVersion), ...(draft.entra ? { auth: 'azure-ad' } : present('api_key', draft.apiKey)) };
}

/** Whether the form can change the provider without changing what it cannot show (a built-in, or another protocol). */
export function editableInForm(provider: Provider): boolean {
  if (provider.builtin) return false;
  const platform = provider.platform ?? '';
  return isPlatform(platform) && PLATFORMS[platform].protocols.some((p) => p.id === provider.protocol);
}
