import { Field } from '../components/ui';
import { messageFor, type FormFailure } from '../form-errors';
import { defaultBaseUrl, PLATFORMS, withPlatform, type PlatformId, type ProviderDraft } from '../provider-platforms';
import type { Provider } from '../types';

interface Props {
  draft: ProviderDraft;
  /** Takes an update of the draft as it is then, so that quick edits build on each other. */
  change: (update: (draft: ProviderDraft) => ProviderDraft) => void;
  failure?: FormFailure;
  /** The provider being edited: its platform is fixed, and its stored key is kept unless a new one is typed. */
  provider?: Provider;
}

/** What each field needs: the draft, the server's refusal, and a way to change part of the draft. */
interface Edit {
  draft: ProviderDraft;
  failure?: FormFailure;
  set: (part: Partial<ProviderDraft>) => void;
}

/**
 * The Platform select and, after it, only the settings of the chosen platform, each with what it
 * does in its hint; the server's refusal of a setting shows beside it.
 */
export function PlatformFields({ draft, change, failure, provider }: Props) {
  const edit: Edit = { draft, failure, set: (part) => change((current) => ({ ...current, ...part })) };
  const stored = Boolean(provider?.has_api_key);
  return (
    <>
      <Field label="Platform" id="provider-platform" error={messageFor(failure, 'platform')} hint={PLATFORMS[draft.platform].hint}>
        <select id="provider-platform" value={draft.platform} disabled={Boolean(provider)} onChange={(e) => {
          const platform = e.currentTarget.value as PlatformId;
          change((current) => withPlatform(current, platform));
        }}>
          {Object.entries(PLATFORMS).map(([id, spec]) => (
            <option key={id} value={id}>{spec.label}</option>
          ))}
        </select>
      </Field>
      {draft.platform === '' && (
        <>
          <BaseUrl {...edit} hint="With /v1: requests go to {base}/chat/completions" placeholder="http://10.0.0.7:8000/v1" />
          <ApiKey {...edit} stored={stored} hint="Stored encrypted, never shown again; empty for a server that takes no key" />
        </>
      )}
      {draft.platform === 'azure' && <AzureFields {...edit} stored={stored} />}
      {draft.platform === 'bedrock' && (
        <>
          <Protocol {...edit} />
          <Text {...edit} field="region" label="Region" hint="The AWS region the models are called in" placeholder="us-east-1" />
          <ApiKey {...edit} stored={stored} hint="Optional, a Bedrock API key; empty: SigV4 from the gateway’s AWS credentials" />
          <BaseUrl {...edit} wide hint="Optional, for a VPC endpoint; empty: Bedrock’s own in the region" placeholder={defaultBaseUrl(draft)} />
        </>
      )}
      {draft.platform === 'vertex' && (
        <>
          <Protocol {...edit} />
          <Text {...edit} field="project" label="Project" hint="The Google Cloud project id billed for the calls" placeholder="my-project" />
          <Text {...edit} field="location" label="Location" hint="A region (us-east5) or global, where the models run" placeholder="us-east5" />
          <BaseUrl {...edit} wide hint="Optional, for a Private Service Connect endpoint; empty: Google’s for the location" placeholder={defaultBaseUrl(draft)} />
        </>
      )}
    </>
  );
}

function AzureFields({ stored, ...edit }: Edit & { stored: boolean }) {
  const { draft, failure, set } = edit;
  return (
    <>
      <BaseUrl {...edit} hint="The resource: requests go to {base}/openai/v1/chat/completions" placeholder="https://my-resource.openai.azure.com" />
      <Text {...edit} field="apiVersion" param="api_version" label="API version" hint="Empty for Azure’s v1 API; a date (2024-10-21) for the deployment paths" placeholder="2024-10-21" />
      <Field label="Authentication" id="provider-auth" error={messageFor(failure, 'auth')} hint={draft.entra ? 'A token from the gateway’s managed identity or Entra ID variables' : 'The resource’s key, sent as api-key'}>
        <select id="provider-auth" value={draft.entra ? 'azure-ad' : 'api-key'} onChange={(e) => set({ entra: e.currentTarget.value === 'azure-ad' })}>
          <option value="api-key">API key</option>
          <option value="azure-ad">Entra ID (managed identity)</option>
        </select>
      </Field>
      {!draft.entra && <ApiKey {...edit} stored={stored} hint="Stored encrypted, never shown again" />}
    </>
  );
}

const ID: Record<'region' | 'project' | 'location' | 'apiVersion', string> = { region: 'provider-region', project: 'provider-project', location: 'provider-location', apiVersion: 'provider-api-version' };

/** A one-line setting; `param` is the API's name for it when it differs from the draft's. */
function Text({ draft, failure, set, field, param = field, label, hint, placeholder }: Edit & { field: keyof typeof ID; param?: string; label: string; hint: string; placeholder: string }) {
  return (
    <Field label={label} id={ID[field]} error={messageFor(failure, param)} hint={hint}>
      <input id={ID[field]} value={draft[field]} placeholder={placeholder} onInput={(e) => set({ [field]: e.currentTarget.value })} />
    </Field>
  );
}

function Protocol({ draft, failure, set }: Edit) {
  const choices = PLATFORMS[draft.platform].protocols;
  return (
    <Field label="Protocol" id="provider-protocol" wide error={messageFor(failure, 'protocol')} hint={choices.find((p) => p.id === draft.protocol)?.hint}>
      <select id="provider-protocol" value={draft.protocol} onChange={(e) => set({ protocol: e.currentTarget.value })}>
        {choices.map((p) => (
          <option key={p.id} value={p.id}>{p.label}</option>
        ))}
      </select>
    </Field>
  );
}

/** `wide` for a cloud's, whose placeholder is the whole default address. */
function BaseUrl({ draft, failure, set, hint, placeholder, wide }: Edit & { hint: string; placeholder?: string; wide?: boolean }) {
  return (
    <Field label="Base URL" id="provider-url" wide={wide} error={messageFor(failure, 'base_url')} hint={hint}>
      <input id="provider-url" value={draft.baseUrl} placeholder={placeholder} onInput={(e) => set({ baseUrl: e.currentTarget.value })} />
    </Field>
  );
}

/** The key field; with a key stored, the hint says that an empty field keeps it. */
function ApiKey({ draft, failure, set, hint, stored }: Edit & { hint: string; stored: boolean }) {
  return (
    <Field label="API key" id="provider-key" error={messageFor(failure, 'api_key')} hint={stored ? 'Stored (encrypted); leave empty to keep it' : hint}>
      <input id="provider-key" type="password" autoComplete="off" value={draft.apiKey} onInput={(e) => set({ apiKey: e.currentTarget.value })} />
    </Field>
  );
}
