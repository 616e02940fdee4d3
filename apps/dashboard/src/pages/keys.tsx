import { Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { cacheSummary, promptSummary } from '../cache-settings';
import { SecretOnce } from '../components/secret-once';
import { Badge, Empty, ErrorNote, Loading, PageHeader, SpendBar } from '../components/ui';
import { ago, dateTime, usd } from '../format';
import { useResource } from '../use-resource';
import { dataPlaneUrl, type Key, type Plan, type Provider, type SessionView, type Team } from '../types';
import { KeyForm } from './key-form';

function status(key: Key): { tone: 'ok' | 'bad' | 'warn'; text: string } {
  if (key.revoked_at) return { tone: 'bad', text: 'Revoked' };
  if (key.expires_at && new Date(key.expires_at).getTime() <= Date.now()) return { tone: 'warn', text: 'Expired' };
  return { tone: 'ok', text: 'Active' };
}

/**
 * A key's caching in its cell: its own settings, or its plan's marked "(plan)" — what applies
 * either way, without opening the plan.
 */
function Caching({ item, plan }: { item: Key; plan: Plan | undefined }) {
  const response = item.cache ? cacheSummary(item.cache) : plan ? `${cacheSummary(plan.cache)} (plan)` : 'plan';
  const prompt = item.prompt_cache ? promptSummary(item.prompt_cache) : plan ? `${promptSummary(plan.prompt_cache)} (plan)` : 'plan';
  return (
    <>
      <span class={item.cache ? undefined : 'muted'}>{response}</span>
      <span class="sub">prompt {prompt.toLowerCase()}</span>
    </>
  );
}

/** Keys: who can call the gateway, on which plan, cache and budget, what they spent and when they last called. */
export function KeysPage({ canWrite, session }: { canWrite: boolean; session: SessionView }) {
  const keys = useResource<Key[]>('/admin/keys?include=spend');
  const teams = useResource<Team[]>('/admin/teams');
  const plans = useResource<Plan[]>('/admin/plans');
  const providers = useResource<Provider[]>('/admin/providers');
  const [mode, setMode] = useState<{ kind: 'create' } | { kind: 'edit'; key: Key } | { kind: 'secret'; name: string; secret: string } | { kind: 'none' }>({ kind: 'none' });
  const [confirming, setConfirming] = useState<string>();
  const [revokeError, setRevokeError] = useState<string>();
  const [showRevoked, setShowRevoked] = useState(false);

  const teamName = useMemo(() => new Map((teams.data ?? []).map((t) => [t.id, t.name])), [teams.data]);
  const planNamed = useMemo(() => new Map((plans.data ?? []).map((p) => [p.name, p])), [plans.data]);
  const models = useMemo(() => [...new Set((providers.data ?? []).flatMap((p) => p.endpoints.map((e) => e.model)))].sort(), [providers.data]);
  const list = (keys.data ?? []).filter((key) => showRevoked || !key.revoked_at);
  const revokedCount = (keys.data ?? []).filter((key) => key.revoked_at).length;

  const revoke = async (key: Key): Promise<void> => {
    setRevokeError(undefined);
    try {
      await api('DELETE', `/admin/keys/${key.id}`);
      setConfirming(undefined);
      keys.reload();
    } catch (error) {
      setRevokeError(error instanceof Error ? error.message : String(error));
    }
  };

  const formReady = plans.data && teams.data;
  return (
    <>
      <PageHeader
        title="Keys"
        lead="API keys for every dialect. A secret is shown once, when the key is created; revoking takes effect on every replica at once."
        actions={
          canWrite && mode.kind === 'none' ? (
            <button type="button" class="primary" onClick={() => setMode({ kind: 'create' })} disabled={!formReady}>
              Create key
            </button>
          ) : undefined
        }
      />
      {mode.kind === 'secret' && <SecretOnce name={mode.name} secret={mode.secret} baseUrl={dataPlaneUrl(session.data_plane, location)} onDone={() => setMode({ kind: 'none' })} />}
      {(mode.kind === 'create' || mode.kind === 'edit') && formReady && (
        <KeyForm
          keyToEdit={mode.kind === 'edit' ? mode.key : undefined}
          plans={plans.data!}
          teams={teams.data!}
          models={models}
          onCancel={() => setMode({ kind: 'none' })}
          onDone={(result) => {
            keys.reload();
            setMode(result.key ? { kind: 'secret', name: result.name, secret: result.key } : { kind: 'none' });
          }}
        />
      )}
      {keys.error && <ErrorNote error={keys.error} retry={keys.reload} />}
      {!keys.data && !keys.error && <Loading what="keys" />}
      {keys.data && list.length === 0 && (
        <Empty>
          <p>No keys yet.</p>
          {canWrite && <p>Press “Create key” to issue the first one; it works at once with the OpenAI, Anthropic and Gemini SDKs.</p>}
        </Empty>
      )}
      {list.length > 0 && (
        <div class="table-wrap">
          <table class="keys">
            <caption class="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Plan</th>
                <th scope="col">Cache</th>
                <th scope="col">Team</th>
                <th scope="col">Budget and spend</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                {canWrite && <th scope="col"><span class="visually-hidden">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {list.map((key) => {
                const state = status(key);
                return (
                  <Fragment key={key.id}>
                    <tr data-key-id={key.id}>
                      <th scope="row" data-label="Name">
                        <span class="name">{key.name}</span>
                        <code class="muted small">{key.prefix}…</code>
                      </th>
                      <td data-label="Plan">
                        {key.plan}
                        {(key.rpm !== null || key.tpm !== null) && <span class="muted small"> ({key.rpm ?? 'plan'} rpm, {key.tpm ?? 'plan'} tpm)</span>}
                      </td>
                      <td data-label="Cache">
                        <Caching item={key} plan={planNamed.get(key.plan)} />
                      </td>
                      <td data-label="Team">{key.team_id ? (teamName.get(key.team_id) ?? '…') : <span class="muted">—</span>}</td>
                      <td data-label="Budget">
                        <SpendBar spent={key.spend_usd} budget={key.budget_usd} period={key.budget_period} />
                        {key.end_user_budget_usd && <span class="muted small" title="Each end user's budget over the same period">{usd(key.end_user_budget_usd)} per end user</span>}
                      </td>
                      <td data-label="Last used" title={dateTime(key.last_used_at)}>
                        {ago(key.last_used_at)}
                      </td>
                      <td data-label="Status">
                        <Badge tone={state.tone}>{state.text}</Badge>
                        {key.expires_at && !key.revoked_at && <span class="muted small"> expires {ago(key.expires_at)}</span>}
                      </td>
                      {canWrite && (
                        <td class="row-actions">
                          {!key.revoked_at && (
                            <>
                              <button type="button" class="secondary small" onClick={() => setMode({ kind: 'edit', key })} aria-label={`Edit ${key.name}`}>
                                Edit
                              </button>
                              <button type="button" class="danger small" onClick={() => setConfirming(key.id)} aria-expanded={confirming === key.id}>
                                Revoke
                              </button>
                            </>
                          )}
                        </td>
                      )}
                    </tr>
                    {confirming === key.id && (
                      <tr class="confirm-row">
                        <td colSpan={8}>
                          <div class="confirm" role="group" aria-label={`Confirm revoking ${key.name}`}>
                            <span>
                              Revoke <strong>{key.name}</strong>? Every client using it gets 401 at once. This cannot be undone.
                            </span>
                            <button type="button" class="danger" onClick={() => void revoke(key)}>
                              Revoke
                            </button>
                            <button type="button" class="secondary" onClick={() => setConfirming(undefined)}>
                              Cancel
                            </button>
                            {revokeError && <span class="form-error" role="alert">{revokeError}</span>}
                          </div>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {revokedCount > 0 && (
        <label class="check toggle">
          <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} /> Show {revokedCount} revoked
        </label>
      )}
    </>
  );
}
