import { MAX_TTL_S, MODE_LABELS, type CacheDraft, type CacheOwner } from '../cache-settings';
import { count } from '../format';
import { messageFor, type FormFailure } from '../form-errors';
import { Field } from './ui';

/** The gateway names a bad mode `cache.mode`, and a cache that is not an object `cache`. */
function modeError(failure: FormFailure | undefined): string | undefined {
  return failure?.param === 'cache' ? failure.message : messageFor(failure, 'cache.mode');
}

/**
 * The response cache (mode, TTL, and similarity for semantic) and prompt caching, as fields of a
 * plan's or a key's form grid. A TTL shows only when answers are kept, a similarity only when
 * they are matched by meaning, so the form asks for nothing that would not be used. On a key,
 * `inherited` is its plan's setting in words, shown in the "inherit" options.
 */
export function CacheFields({ id, owner, draft, onChange, failure, inherited }: {
  id: string;
  owner: CacheOwner;
  draft: CacheDraft;
  onChange: (change: Partial<CacheDraft>) => void;
  failure?: FormFailure;
  inherited?: { cache: string; prompt: string };
}) {
  const keeps = draft.mode === 'exact' || draft.mode === 'semantic';
  return (
    <>
      <Field label="Response cache" id={`${id}-cache-mode`} error={modeError(failure)} hint="Exact: a repeated request is answered from the cache at no cost. Semantic: a similar last message too">
        <select id={`${id}-cache-mode`} value={draft.mode} onChange={(e) => onChange({ mode: e.currentTarget.value as CacheDraft['mode'] })}>
          {owner === 'key' && <option value="">Inherit from plan ({inherited?.cache ?? '…'})</option>}
          {(['off', 'exact', 'semantic'] as const).map((mode) => (
            <option key={mode} value={mode}>{MODE_LABELS[mode]}</option>
          ))}
        </select>
      </Field>
      {keeps && (
        <Field label="Cache TTL (seconds)" id={`${id}-cache-ttl`} error={messageFor(failure, 'cache.ttl_s')} hint={`How long an answer is kept: 1 to ${count(MAX_TTL_S)} (30 days)`}>
          <input id={`${id}-cache-ttl`} inputMode="numeric" value={draft.ttl} onInput={(e) => onChange({ ttl: e.currentTarget.value })} />
        </Field>
      )}
      {draft.mode === 'semantic' && (
        <Field label="Similarity" id={`${id}-cache-similarity`} error={messageFor(failure, 'cache.similarity')} hint="0 to 1: how alike the last message must be; 0.95 is close rewording">
          <input id={`${id}-cache-similarity`} inputMode="decimal" value={draft.similarity} onInput={(e) => onChange({ similarity: e.currentTarget.value })} />
        </Field>
      )}
      <Field label="Prompt caching" id={`${id}-prompt-cache`} error={messageFor(failure, 'prompt_cache')} hint="Auto: the gateway marks Claude's cache breakpoints and gives OpenAI a cache key">
        <select id={`${id}-prompt-cache`} value={draft.prompt} onChange={(e) => onChange({ prompt: e.currentTarget.value as CacheDraft['prompt'] })}>
          {owner === 'key' && <option value="">Inherit from plan ({inherited?.prompt ?? '…'})</option>}
          <option value="off">Off</option>
          <option value="auto">Auto</option>
        </select>
      </Field>
    </>
  );
}
