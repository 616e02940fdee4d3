import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { cacheBodyOf, cacheDraftOf, cacheSummary, promptSummary, type CacheDraft } from '../cache-settings';
import { CacheFields } from '../components/cache-fields';
import { FormError } from '../components/form-error';
import { GuardrailsField } from '../components/guardrails-field';
import { guardrailsText, guardrailsValue } from '../guardrails-text';
import { Field } from '../components/ui';
import { failureOf, messageFor, type FormFailure } from '../form-errors';
import type { Key, Plan, Team } from '../types';

interface Draft {
  name: string;
  plan: string;
  team: string;
  budget: string;
  /** Each end user's budget; '' for none. */
  endUserBudget: string;
  period: string;
  rpm: string;
  tpm: string;
  models: string[];
  expires: string;
  /** The response cache and prompt caching; '' inherits the plan's. */
  caching: CacheDraft;
  /** The key's own guardrail checks as JSON text; '' for none. */
  guardrails: string;
}

/** A plan's limit in few characters, so the option fits its select: 100000 → 100k, null → ∞. */
function short(limit: number | null): string {
  if (limit === null) return '∞';
  if (limit >= 1_000_000 && limit % 100_000 === 0) return `${limit / 1_000_000}M`;
  if (limit >= 1000 && limit % 100 === 0) return `${limit / 1000}k`;
  return String(limit);
}

/** A number when the text is one; otherwise the text itself, so the gateway names what is wrong. */
function numberOr(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

function draftOf(key: Key | undefined, plans: Plan[]): Draft {
  return {
    name: key?.name ?? '',
    plan: key?.plan ?? plans.find((p) => p.name === 'pro')?.name ?? plans[0]?.name ?? '',
    team: key?.team_id ?? '',
    budget: key?.budget_usd ?? '',
    endUserBudget: key?.end_user_budget_usd ?? '',
    period: key?.budget_period ?? 'month',
    rpm: key?.rpm === null || key?.rpm === undefined ? '' : String(key.rpm),
    tpm: key?.tpm === null || key?.tpm === undefined ? '' : String(key.tpm),
    models: key?.models ?? [],
    expires: key?.expires_at ? key.expires_at.slice(0, 16) : '',
    caching: cacheDraftOf(key?.cache, key?.prompt_cache, 'key'),
    guardrails: guardrailsText(key?.guardrails),
  };
}

/** The body the API takes: every field on create; on edit, what changed (null clears it). */
function bodyOf(draft: Draft, key: Key | undefined, guardrails: unknown): Record<string, unknown> {
  const budget = numberOr(draft.budget);
  const endUserBudget = numberOr(draft.endUserBudget);
  const full: Record<string, unknown> = {
    name: draft.name,
    plan: draft.plan,
    team_id: draft.team || null,
    budget_usd: budget,
    end_user_budget_usd: endUserBudget,
    budget_period: budget === null && endUserBudget === null ? null : draft.period,
    rpm: numberOr(draft.rpm),
    tpm: numberOr(draft.tpm),
    models: draft.models.length ? draft.models : null,
    expires_at: draft.expires ? new Date(`${draft.expires}:00Z`).toISOString() : null,
    ...cacheBodyOf(draft.caching),
    guardrails,
  };
  if (!key) return Object.fromEntries(Object.entries(full).filter(([, value]) => value !== null));
  const before = bodyOf(draftOf(key, []), undefined, key.guardrails ?? null);
  return Object.fromEntries(Object.entries(full).filter(([name, value]) => JSON.stringify(value ?? null) !== JSON.stringify(before[name] ?? null)));
}

/** Create a key (Name, Plan, Team, Budget (USD), caching …) or change one; the server's messages show beside the field they name. */
export function KeyForm({ keyToEdit, plans, teams, models, onDone, onCancel }: { keyToEdit?: Key; plans: Plan[]; teams: Team[]; models: string[]; onDone: (result: Key & { key?: string }) => void; onCancel: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(keyToEdit, plans));
  const [failure, setFailure] = useState<FormFailure>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<Draft>): void => setDraft((current) => ({ ...current, ...change }));
  const id = keyToEdit ? `edit-${keyToEdit.id.slice(0, 8)}` : 'new-key';
  const plan = plans.find((p) => p.name === draft.plan);
  const inherited = plan && { cache: cacheSummary(plan.cache).toLowerCase(), prompt: promptSummary(plan.prompt_cache).toLowerCase() };
  // A long list of models scrolls in its box: say so, where it does (a phone), and only there.
  const checks = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const box = checks.current;
    if (!box) return undefined;
    const measure = (): void => setOverflows(box.scrollHeight > box.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [models.length]);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    const checks = guardrailsValue(draft.guardrails);
    if (!checks.ok) {
      setFailure(checks.failure);
      setBusy(false);
      return;
    }
    try {
      const body = bodyOf(draft, keyToEdit, checks.value);
      const result = keyToEdit ? await api<Key>('PATCH', `/admin/keys/${keyToEdit.id}`, body) : await api<Key & { key: string }>('POST', '/admin/keys', body);
      onDone(result);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} noValidate aria-label={keyToEdit ? `Edit key ${keyToEdit.name}` : 'Create key'}>
      <h2>{keyToEdit ? `Edit ${keyToEdit.name}` : 'Create key'}</h2>
      <div class="grid">
        <Field label="Name" id={`${id}-name`} error={messageFor(failure, 'name')} hint="Who or what uses it, e.g. ci or alice-laptop">
          <input id={`${id}-name`} value={draft.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        </Field>
        <Field label="Plan" id={`${id}-plan`} error={messageFor(failure, 'plan')} hint="Requests and tokens per minute">
          <select id={`${id}-plan`} value={draft.plan} onChange={(e) => set({ plan: e.currentTarget.value })}>
            {plans.map((plan) => (
              <option key={plan.name} value={plan.name}>
                {plan.name} ({short(plan.rpm)} rpm, {short(plan.tpm)} tpm)
              </option>
            ))}
          </select>
        </Field>
        <Field label="Team" id={`${id}-team`} error={messageFor(failure, 'team_id')}>
          <select id={`${id}-team`} value={draft.team} onChange={(e) => set({ team: e.currentTarget.value })}>
            <option value="">No team</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Budget (USD)" id={`${id}-budget`} error={messageFor(failure, 'budget_usd')} hint="Empty: no budget of its own">
          <input id={`${id}-budget`} inputMode="decimal" value={draft.budget} onInput={(e) => set({ budget: e.currentTarget.value })} />
        </Field>
        <Field label="Budget per end user (USD)" id={`${id}-end-user-budget`} error={messageFor(failure, 'end_user_budget_usd')} hint="Each end user of the key (x-rosetta-end-user or the user field); empty: none">
          <input id={`${id}-end-user-budget`} inputMode="decimal" value={draft.endUserBudget} onInput={(e) => set({ endUserBudget: e.currentTarget.value })} />
        </Field>
        <Field label="Budget period" id={`${id}-period`} error={messageFor(failure, 'budget_period')}>
          <select id={`${id}-period`} value={draft.period} onChange={(e) => set({ period: e.currentTarget.value })}>
            <option value="day">Per day (UTC)</option>
            <option value="month">Per month (UTC)</option>
            <option value="total">In total</option>
          </select>
        </Field>
        <Field label="Requests per minute" id={`${id}-rpm`} error={messageFor(failure, 'rpm')} hint="Empty: the plan's">
          <input id={`${id}-rpm`} inputMode="numeric" value={draft.rpm} onInput={(e) => set({ rpm: e.currentTarget.value })} />
        </Field>
        <Field label="Tokens per minute" id={`${id}-tpm`} error={messageFor(failure, 'tpm')} hint="Empty: the plan's">
          <input id={`${id}-tpm`} inputMode="numeric" value={draft.tpm} onInput={(e) => set({ tpm: e.currentTarget.value })} />
        </Field>
        <Field label="Expires (UTC)" id={`${id}-expires`} error={messageFor(failure, 'expires_at')} hint="Empty: never">
          <input id={`${id}-expires`} type="datetime-local" value={draft.expires} onInput={(e) => set({ expires: e.currentTarget.value })} />
        </Field>
        <CacheFields id={id} owner="key" draft={draft.caching} onChange={(change) => setDraft((current) => ({ ...current, caching: { ...current.caching, ...change } }))} failure={failure} inherited={inherited} />
        <GuardrailsField id={id} level="key" text={draft.guardrails} onInput={(text) => set({ guardrails: text })} failure={failure} />
      </div>
      <fieldset class={`models${messageFor(failure, 'models') ? ' invalid' : ''}`}>
        <legend>Allowed models {draft.models.length ? `(${draft.models.length})` : '(all: none ticked)'}</legend>
        {overflows && <p class="hint checks-hint">{models.length} models: the list scrolls.</p>}
        <div ref={checks} class="checks scrolls" tabIndex={overflows ? 0 : undefined} aria-label="Models this key may use">
          {models.map((model) => (
            <label key={model} class="check">
              <input
                type="checkbox"
                checked={draft.models.includes(model)}
                onChange={(e) => set({ models: e.currentTarget.checked ? [...draft.models, model] : draft.models.filter((m) => m !== model) })}
              />
              {model}
            </label>
          ))}
        </div>
      </fieldset>
      <FormError failure={failure} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : keyToEdit ? 'Save' : 'Create'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
