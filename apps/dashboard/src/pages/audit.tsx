import { useState } from 'preact/hooks';
import { query } from '../api';
import { Empty, ErrorNote, Loading, PageHeader } from '../components/ui';
import { dateTime } from '../format';
import { useResource } from '../use-resource';
import type { AuditEntry } from '../types';

const KINDS = [
  ['', 'Everything'],
  ['key', 'Keys'],
  ['team', 'Teams'],
  ['plan', 'Plans'],
  ['provider', 'Providers'],
  ['model', 'Models'],
  ['session', 'Sign-ins'],
] as const;
const PAGE = 50;

const METHODS: Record<string, string> = { bearer: 'API, bearer token', token: 'dashboard, admin token', oidc: 'dashboard, SSO' };

function describe(entry: AuditEntry): string {
  const target = entry.target_name ?? entry.target_id;
  return target ? `${entry.action} ${target}` : entry.action;
}

/** Audit log: every admin change and sign-in, newest first, with who, what, when and from where. */
export function AuditPage() {
  const [kind, setKind] = useState('');
  const [actor, setActor] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors[cursors.length - 1];
  const log = useResource<{ data: AuditEntry[]; next_cursor: string | null }>(`/admin/audit${query({ limit: PAGE, action: kind, actor: actor.trim(), before })}`);
  const filter = (change: () => void): void => {
    change();
    setCursors([]);
  };
  return (
    <>
      <PageHeader title="Audit log" lead="Every change to keys, teams, plans, providers and models, and every sign-in — who, what, when and from where." />
      <div class="filters panel">
        <label class="inline">
          What
          <select value={kind} onChange={(e) => filter(() => setKind(e.currentTarget.value))}>
            {KINDS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
        <label class="inline">
          Who
          <input value={actor} placeholder="part of a name" onInput={(e) => filter(() => setActor(e.currentTarget.value))} />
        </label>
      </div>
      {log.error && <ErrorNote error={log.error} retry={log.reload} />}
      {!log.data && !log.error && <Loading what="the audit log" />}
      {log.data?.data.length === 0 && <Empty>Nothing recorded{kind || actor ? ' that matches' : ' yet'}.</Empty>}
      {log.data && log.data.data.length > 0 && (
        <div class="table-wrap">
          <table class="audit">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">From</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {log.data.data.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="When">{dateTime(entry.at)}</td>
                  <td data-label="Who">
                    {entry.actor}
                    <span class="muted small"> {[entry.role, METHODS[entry.method] ?? entry.method].filter(Boolean).join(' · ')}</span>
                  </td>
                  <th scope="row" data-label="What">{describe(entry)}</th>
                  <td data-label="From" title={entry.user_agent ?? undefined}>{entry.ip ?? '—'}</td>
                  <td data-label="Details">{entry.details ? <code class="details-json">{JSON.stringify(entry.details)}</code> : <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="buttons pager">
        <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>Newer</button>
        <button type="button" class="secondary" disabled={!log.data?.next_cursor} onClick={() => setCursors([...cursors, log.data!.next_cursor!])}>Older</button>
      </div>
    </>
  );
}
