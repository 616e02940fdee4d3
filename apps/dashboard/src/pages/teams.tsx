import { useState } from 'preact/hooks';
import { api } from '../api';
import { FormError } from '../components/form-error';
import { GuardrailsField } from '../components/guardrails-field';
import { guardrailsText, guardrailsValue } from '../guardrails-text';
import { Empty, ErrorNote, Field, Loading, PageHeader, SpendBar } from '../components/ui';
import { dateTime } from '../format';
import { failureOf, messageFor, type FormFailure } from '../form-errors';
import { useResource } from '../use-resource';
import type { Key, Team } from '../types';

function TeamForm({ team, onDone, onCancel }: { team?: Team; onDone: () => void; onCancel: () => void }) {
  const [name, setName] = useState(team?.name ?? '');
  const [budget, setBudget] = useState(team?.budget_usd ?? '');
  const [period, setPeriod] = useState<string>(team?.budget_period ?? 'month');
  const [guardrails, setGuardrails] = useState(guardrailsText(team?.guardrails));
  const [failure, setFailure] = useState<FormFailure>();
  const [busy, setBusy] = useState(false);
  const id = team ? `team-${team.id.slice(0, 8)}` : 'new-team';

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    const checks = guardrailsValue(guardrails);
    if (!checks.ok) {
      setFailure(checks.failure);
      setBusy(false);
      return;
    }
    const amount = budget.trim() === '' ? null : /^\d+(\.\d+)?$/.test(budget.trim()) ? Number(budget) : budget;
    const body: Record<string, unknown> = { name, budget_usd: amount, budget_period: amount === null ? null : period, guardrails: checks.value };
    try {
      if (team) await api('PATCH', `/admin/teams/${team.id}`, body);
      else await api('POST', '/admin/teams', { name, ...(amount === null ? {} : { budget_usd: amount, budget_period: period }), ...(checks.value === null ? {} : { guardrails: checks.value }) });
      onDone();
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} noValidate aria-label={team ? `Edit team ${team.name}` : 'Create team'}>
      <h2>{team ? `Edit ${team.name}` : 'Create team'}</h2>
      <div class="grid">
        <Field label="Team name" id={`${id}-name`} error={messageFor(failure, 'name')}>
          <input id={`${id}-name`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label="Team budget (USD)" id={`${id}-budget`} error={messageFor(failure, 'budget_usd')} hint="Shared by the team's keys; empty: none">
          <input id={`${id}-budget`} inputMode="decimal" value={budget} onInput={(e) => setBudget(e.currentTarget.value)} />
        </Field>
        <Field label="Budget period" id={`${id}-period`} error={messageFor(failure, 'budget_period')}>
          <select id={`${id}-period`} value={period} onChange={(e) => setPeriod(e.currentTarget.value)}>
            <option value="day">Per day (UTC)</option>
            <option value="month">Per month (UTC)</option>
            <option value="total">In total</option>
          </select>
        </Field>
        <GuardrailsField id={id} level="team" text={guardrails} onInput={setGuardrails} failure={failure} />
      </div>
      <FormError failure={failure} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {team ? 'Save' : 'Create team'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Teams: keys charged together, each team with a budget and how much of it is spent. */
export function TeamsPage({ canWrite }: { canWrite: boolean }) {
  const teams = useResource<Team[]>('/admin/teams?include=spend');
  const keys = useResource<Key[]>('/admin/keys');
  const [editing, setEditing] = useState<Team | 'new'>();
  const members = (team: Team): number => (keys.data ?? []).filter((key) => key.team_id === team.id && !key.revoked_at).length;
  const done = (): void => {
    setEditing(undefined);
    teams.reload();
  };
  return (
    <>
      <PageHeader
        title="Teams"
        lead="A request is charged to its key and to its key's team; when either budget cannot cover it, the caller gets 402."
        actions={canWrite && !editing ? <button type="button" class="primary" onClick={() => setEditing('new')}>New team</button> : undefined}
      />
      {editing && <TeamForm team={editing === 'new' ? undefined : editing} onDone={done} onCancel={() => setEditing(undefined)} />}
      {teams.error && <ErrorNote error={teams.error} retry={teams.reload} />}
      {!teams.data && !teams.error && <Loading what="teams" />}
      {teams.data?.length === 0 && <Empty>No teams yet. A team groups keys under one budget{canWrite ? ': press “New team”.' : '.'}</Empty>}
      {teams.data && teams.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col">Active keys</th>
                <th scope="col">Budget and spend</th>
                <th scope="col">Created</th>
                {canWrite && <th scope="col"><span class="visually-hidden">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {teams.data.map((team) => (
                <tr key={team.id}>
                  <th scope="row" data-label="Team">{team.name}</th>
                  <td data-label="Active keys">{keys.data ? members(team) : '…'}</td>
                  <td data-label="Budget">
                    <SpendBar spent={team.spend_usd} budget={team.budget_usd} period={team.budget_period} />
                  </td>
                  <td data-label="Created">{dateTime(team.created_at)}</td>
                  {canWrite && (
                    <td class="row-actions">
                      <button type="button" class="secondary small" onClick={() => setEditing(team)} aria-label={`Edit team ${team.name}`}>
                        Edit
                      </button>
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
