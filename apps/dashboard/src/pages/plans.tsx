import { useState } from 'preact/hooks';
import { api } from '../api';
import { cacheBodyOf, cacheDraftOf, cacheSummary, promptSummary, type CacheDraft } from '../cache-settings';
import { CacheFields } from '../components/cache-fields';
import { FormError } from '../components/form-error';
import { GuardrailsField } from '../components/guardrails-field';
import { guardrailsText, guardrailsValue } from '../guardrails-text';
import { Empty, ErrorNote, Field, Loading, PageHeader } from '../components/ui';
import { count } from '../format';
import { failureOf, messageFor, type FormFailure } from '../form-errors';
import { useResource } from '../use-resource';
import type { Key, Plan } from '../types';

const limitOf = (text: string): number | string | null => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text) : text);

/**
 * The caching part of a plan's body. A new plan leaves out what is off (the gateway's default); an
 * edit sends only what changed, so opening and saving a plan keeps a null as null.
 */
function cachingOf(draft: CacheDraft, plan: Plan | undefined): Record<string, unknown> {
  const now = cacheBodyOf(draft);
  if (!plan) return { ...(draft.mode === 'off' ? {} : { cache: now.cache }), ...(draft.prompt === 'auto' ? { prompt_cache: 'auto' } : {}) };
  const before = cacheBodyOf(cacheDraftOf(plan.cache, plan.prompt_cache, 'plan'));
  return Object.fromEntries(Object.entries(now).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(before[name as keyof typeof before])));
}

function PlanForm({ plan, onDone, onCancel }: { plan?: Plan; onDone: () => void; onCancel: () => void }) {
  const [name, setName] = useState(plan?.name ?? '');
  const [rpm, setRpm] = useState(plan?.rpm === null || plan?.rpm === undefined ? '' : String(plan.rpm));
  const [tpm, setTpm] = useState(plan?.tpm === null || plan?.tpm === undefined ? '' : String(plan.tpm));
  const [caching, setCaching] = useState<CacheDraft>(() => cacheDraftOf(plan?.cache, plan?.prompt_cache, 'plan'));
  const [guardrails, setGuardrails] = useState(guardrailsText(plan?.guardrails));
  const [failure, setFailure] = useState<FormFailure>();
  const id = plan ? `plan-${plan.name}` : 'new-plan';
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFailure(undefined);
    const checks = guardrailsValue(guardrails);
    if (!checks.ok) return setFailure(checks.failure);
    // A new plan leaves out no checks; an edit sends them only when they changed.
    const unchanged = JSON.stringify(checks.value) === JSON.stringify(plan?.guardrails ?? null);
    try {
      const body = { rpm: limitOf(rpm), tpm: limitOf(tpm), ...cachingOf(caching, plan), ...(unchanged ? {} : { guardrails: checks.value }) };
      if (plan) await api('PATCH', `/admin/plans/${encodeURIComponent(plan.name)}`, body);
      else await api('PUT', `/admin/plans/${encodeURIComponent(name.trim() || '-')}`, body);
      onDone();
    } catch (error) {
      setFailure(failureOf(error));
    }
  };
  return (
    <form class="panel form" onSubmit={submit} noValidate aria-label={plan ? `Edit plan ${plan.name}` : 'Create plan'}>
      <h2>{plan ? `Edit plan ${plan.name}` : 'Create plan'}</h2>
      <div class="grid">
        {!plan && (
          <Field label="Plan name" id={`${id}-name`} error={messageFor(failure, 'name')} hint="A lowercase slug: team, batch-jobs">
            <input id={`${id}-name`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
        )}
        <Field label="Requests per minute" id={`${id}-rpm`} error={messageFor(failure, 'rpm')} hint="Empty: unlimited">
          <input id={`${id}-rpm`} inputMode="numeric" value={rpm} onInput={(e) => setRpm(e.currentTarget.value)} />
        </Field>
        <Field label="Tokens per minute" id={`${id}-tpm`} error={messageFor(failure, 'tpm')} hint="Empty: unlimited">
          <input id={`${id}-tpm`} inputMode="numeric" value={tpm} onInput={(e) => setTpm(e.currentTarget.value)} />
        </Field>
        <CacheFields id={id} owner="plan" draft={caching} onChange={(change) => setCaching((current) => ({ ...current, ...change }))} failure={failure} />
        <GuardrailsField id={id} level="plan" text={guardrails} onInput={setGuardrails} failure={failure} />
      </div>
      <FormError failure={failure} />
      <div class="buttons">
        <button type="submit" class="primary">{plan ? 'Save' : 'Create plan'}</button>
        <button type="button" class="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

/** Plans: the per-minute limits and the caching keys inherit (a key's own settings override them). */
export function PlansPage({ canWrite }: { canWrite: boolean }) {
  const plans = useResource<Plan[]>('/admin/plans');
  const keys = useResource<Key[]>('/admin/keys');
  const [editing, setEditing] = useState<Plan | 'new'>();
  const [deleteError, setDeleteError] = useState<string>();
  const users = (plan: Plan): number => (keys.data ?? []).filter((key) => key.plan === plan.name && !key.revoked_at).length;
  const done = (): void => {
    setEditing(undefined);
    plans.reload();
  };
  const remove = async (plan: Plan): Promise<void> => {
    setDeleteError(undefined);
    try {
      await api('DELETE', `/admin/plans/${encodeURIComponent(plan.name)}`);
      plans.reload();
    } catch (error) {
      setDeleteError(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <>
      <PageHeader
        title="Plans"
        lead="Limits per key over a sliding minute, exact across replicas, and the caching its keys inherit. Changes apply on every replica within a second."
        actions={canWrite && !editing ? <button type="button" class="primary" onClick={() => setEditing('new')}>New plan</button> : undefined}
      />
      {editing && <PlanForm plan={editing === 'new' ? undefined : editing} onDone={done} onCancel={() => setEditing(undefined)} />}
      {deleteError && <ErrorNote error={deleteError} />}
      {plans.error && <ErrorNote error={plans.error} retry={plans.reload} />}
      {!plans.data && !plans.error && <Loading what="plans" />}
      {plans.data?.length === 0 && <Empty>No plans. Create one before issuing keys.</Empty>}
      {plans.data && plans.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Requests per minute</th>
                <th scope="col">Tokens per minute</th>
                <th scope="col">Response cache</th>
                <th scope="col">Prompt caching</th>
                <th scope="col">Active keys</th>
                {canWrite && <th scope="col"><span class="visually-hidden">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {plans.data.map((plan) => (
                <tr key={plan.name}>
                  <th scope="row" data-label="Plan">{plan.name}</th>
                  <td data-label="Requests per minute">{plan.rpm === null ? 'Unlimited' : count(plan.rpm)}</td>
                  <td data-label="Tokens per minute">{plan.tpm === null ? 'Unlimited' : count(plan.tpm)}</td>
                  <td data-label="Response cache">{cacheSummary(plan.cache)}</td>
                  <td data-label="Prompt caching">{promptSummary(plan.prompt_cache)}</td>
                  <td data-label="Active keys">{keys.data ? users(plan) : '…'}</td>
                  {canWrite && (
                    <td class="row-actions">
                      <button type="button" class="secondary small" onClick={() => setEditing(plan)} aria-label={`Edit plan ${plan.name}`}>Edit</button>
                      <button type="button" class="danger small" onClick={() => void remove(plan)} aria-label={`Delete plan ${plan.name}`}>Delete</button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
