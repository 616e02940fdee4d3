import { useState } from 'preact/hooks';
import { api } from '../api';
import { FormError } from '../components/form-error';
import { Field } from '../components/ui';
import { failureOf, messageFor, type FormFailure } from '../form-errors';
import { draftOf, PLATFORMS, providerBody } from '../provider-platforms';
import type { Provider } from '../types';
import { PlatformFields } from './provider-platform-fields';

interface EndpointDraft {
  model: string;
  upstream: string;
  context: string;
  maxOutput: string;
  prompt: string;
  completion: string;
}

const BLANK: EndpointDraft = { model: '', upstream: '', context: '32768', maxOutput: '4096', prompt: '0', completion: '0' };
const whole = (text: string): number | string => (/^\d+$/.test(text.trim()) ? Number(text) : text);

/**
 * Add or change a provider: an OpenAI-compatible server (vLLM, Ollama, LM Studio, Groq, Together…)
 * or a cloud (Azure OpenAI, AWS Bedrock, Google Vertex AI) with its settings, and the models it
 * serves. Prices are asked for per million tokens, the way providers quote them. An api_key left
 * empty keeps the one stored.
 */
export function ProviderForm({ provider, onDone, onCancel }: { provider?: Provider; onDone: () => void; onCancel: () => void }) {
  const [slug, setSlug] = useState(provider?.slug ?? '');
  const [draft, setDraft] = useState(() => draftOf(provider));
  const [endpoints, setEndpoints] = useState<EndpointDraft[]>(
    // Embedding endpoints (vector size and all) are left as they are: PUT changes only the endpoints it lists.
    provider?.endpoints.filter((e) => e.kind !== 'embedding').map((e) => ({ model: e.model, upstream: e.upstream_model, context: String(e.context_length), maxOutput: String(e.max_completion_tokens), prompt: e.usd_per_million_tokens.prompt, completion: e.usd_per_million_tokens.completion })) ?? [{ ...BLANK }],
  );
  const [failure, setFailure] = useState<FormFailure>();
  const [busy, setBusy] = useState(false);
  const platform = PLATFORMS[draft.platform];
  const edit = (index: number, change: Partial<EndpointDraft>): void => setEndpoints((list) => list.map((e, i) => (i === index ? { ...e, ...change } : e)));

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFailure(undefined);
    setBusy(true);
    const body = {
      ...providerBody(draft),
      endpoints: endpoints.map((e) => ({
        model: e.model.trim(),
        upstream_model: e.upstream.trim(),
        context_length: whole(e.context),
        max_completion_tokens: whole(e.maxOutput),
        // Sent as typed: the gateway takes USD per million tokens and refuses a price no provider charges.
        usd_per_million_tokens: { prompt: e.prompt.trim(), completion: e.completion.trim() },
      })),
    };
    try {
      await api('PUT', `/admin/providers/${encodeURIComponent(slug.trim() || '-')}`, body);
      setDraft((current) => ({ ...current, apiKey: '' }));
      onDone();
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} noValidate aria-label={provider ? `Edit provider ${provider.slug}` : 'Add provider'}>
      <h2>{provider ? `Edit ${provider.slug}` : 'Add a provider'}</h2>
      <div class="grid">
        <Field label="Slug" id="provider-slug" error={messageFor(failure, 'slug')} hint="Lowercase, e.g. vllm-gpu1">
          <input id="provider-slug" value={slug} disabled={Boolean(provider)} onInput={(e) => setSlug(e.currentTarget.value)} />
        </Field>
        <PlatformFields draft={draft} change={setDraft} failure={failure} provider={provider} />
      </div>
      <fieldset class="provider-models">
        <legend>Models it serves</legend>
        {provider?.endpoints.some((e) => e.kind === 'embedding') && (
          <p class="hint">Its embedding models are not shown here and stay as they are; change them with PUT /admin/providers/{provider.slug}.</p>
        )}
        {endpoints.map((e, i) => (
          <div class="endpoint-row" key={i} role="group" aria-label={`Model ${i + 1}`}>
            <Field label="Model id" id={`ep-${i}-model`} error={messageFor(failure, `endpoints[${i}].model`)} hint="rosetta/<name>: new or existing">
              <input id={`ep-${i}-model`} value={e.model} placeholder="rosetta/llama-3.1-8b" onInput={(ev) => edit(i, { model: ev.currentTarget.value })} />
            </Field>
            <Field label={platform.upstreamLabel} id={`ep-${i}-upstream`} error={messageFor(failure, `endpoints[${i}].upstream_model`)}>
              <input id={`ep-${i}-upstream`} value={e.upstream} placeholder={platform.upstreamExample(draft.protocol)} onInput={(ev) => edit(i, { upstream: ev.currentTarget.value })} />
            </Field>
            <Field label="Context length" id={`ep-${i}-context`} error={messageFor(failure, `endpoints[${i}].context_length`)}>
              <input id={`ep-${i}-context`} inputMode="numeric" value={e.context} onInput={(ev) => edit(i, { context: ev.currentTarget.value })} />
            </Field>
            <Field label="Max output tokens" id={`ep-${i}-max`} error={messageFor(failure, `endpoints[${i}].max_completion_tokens`)}>
              <input id={`ep-${i}-max`} inputMode="numeric" value={e.maxOutput} onInput={(ev) => edit(i, { maxOutput: ev.currentTarget.value })} />
            </Field>
            <Field label="Input $ / M tokens" id={`ep-${i}-prompt`} error={messageFor(failure, `endpoints[${i}].usd_per_million_tokens.prompt`)}>
              <input id={`ep-${i}-prompt`} inputMode="decimal" value={e.prompt} onInput={(ev) => edit(i, { prompt: ev.currentTarget.value })} />
            </Field>
            <Field label="Output $ / M tokens" id={`ep-${i}-completion`} error={messageFor(failure, `endpoints[${i}].usd_per_million_tokens.completion`)}>
              <input id={`ep-${i}-completion`} inputMode="decimal" value={e.completion} onInput={(ev) => edit(i, { completion: ev.currentTarget.value })} />
            </Field>
            {endpoints.length > 1 && !provider && (
              <button type="button" class="link" onClick={() => setEndpoints((list) => list.filter((_, j) => j !== i))}>Remove model {i + 1}</button>
            )}
          </div>
        ))}
        <button type="button" class="secondary small" onClick={() => setEndpoints((list) => [...list, { ...BLANK }])}>Add a model</button>
      </fieldset>
      <FormError failure={failure} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>{busy ? 'Saving…' : provider ? 'Save provider' : 'Add provider'}</button>
        <button type="button" class="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
