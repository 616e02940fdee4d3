import { useMemo, useState } from 'preact/hooks';
import { query } from '../api';
import { Badge, Empty, ErrorNote, Loading } from '../components/ui';
import { count, dateTime, ms, shortDateTime, usd } from '../format';
import { useResource } from '../use-resource';
import type { Key, LedgerPage, LedgerRow, Provider } from '../types';
import { NotServed, notServedHint } from '../components/not-served';
import { statusTone, text } from './request-details';

const PAGE = 50;
const REFRESH_MS = 15_000;

/**
 * Recent requests from the ledger, newest first, filtered by key, model or errors only; the
 * response cache's hit or miss shows under a row's status, and what a hit saved under its cost.
 * The first page refreshes every 15 seconds (like Usage), older pages hold still. A row opens its details.
 */
export function RecentRequests({ onOpen, openId }: { onOpen: (row: LedgerRow) => void; openId?: string }) {
  const [keyId, setKeyId] = useState('');
  const [model, setModel] = useState('');
  const [endUser, setEndUser] = useState('');
  const [tag, setTag] = useState('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors[cursors.length - 1];
  const page = useResource<LedgerPage>(`/admin/requests${query({ limit: PAGE, key_id: keyId, model, end_user: endUser.trim() || undefined, tag: tag.trim() || undefined, status: errorsOnly ? 'error' : undefined, before })}`, before ? undefined : REFRESH_MS);
  const keys = useResource<Key[]>('/admin/keys');
  const providers = useResource<Provider[]>('/admin/providers');
  const models = useMemo(() => {
    const seen = new Set((providers.data ?? []).flatMap((p) => p.endpoints.map((e) => e.model)));
    for (const row of page.data?.data ?? []) if (row.requested_model) seen.add(row.requested_model);
    if (model) seen.add(model);
    return [...seen].sort();
  }, [providers.data, page.data, model]);
  const filter = (change: () => void): void => {
    change();
    setCursors([]);
  };
  const filtered = keyId !== '' || model !== '' || endUser.trim() !== '' || tag.trim() !== '' || errorsOnly;

  return (
    <section class="panel" aria-label="Recent requests">
      <div class="list-head">
        <h2>Recent requests</h2>
        <p class="muted list-note">{before ? 'An older page: it holds still.' : 'Newest first; refreshes every 15 seconds.'}</p>
      </div>
      <div class="filters">
        <label class="inline">
          Key
          <select value={keyId} onChange={(e) => filter(() => setKeyId(e.currentTarget.value))}>
            <option value="">Any key</option>
            {(keys.data ?? []).map((key) => (
              <option key={key.id} value={key.id}>{key.name}{key.revoked_at ? ' (revoked)' : ''}</option>
            ))}
          </select>
        </label>
        <label class="inline">
          Model
          <select value={model} onChange={(e) => filter(() => setModel(e.currentTarget.value))}>
            <option value="">Any model</option>
            {models.map((name) => <option key={name} value={name}>{name}</option>)}
          </select>
        </label>
        {/* Applied on change (Enter or leaving the field), not on every keystroke. */}
        <label class="inline">
          End user
          <input type="search" value={endUser} placeholder="Any end user" onChange={(e) => filter(() => setEndUser(e.currentTarget.value))} />
        </label>
        <label class="inline">
          Tag
          <input type="search" value={tag} placeholder="Any tag" onChange={(e) => filter(() => setTag(e.currentTarget.value))} />
        </label>
        <label class="check">
          <input type="checkbox" checked={errorsOnly} onChange={(e) => filter(() => setErrorsOnly(e.currentTarget.checked))} />
          Errors only
        </label>
      </div>
      {page.error && <ErrorNote error={page.error} retry={page.reload} />}
      {!page.data && !page.error && <Loading what="recent requests" />}
      {page.data?.data.length === 0 && (
        <Empty>{filtered ? 'No requests match these filters.' : 'No requests yet. Call the gateway with a key: each request shows here within seconds of its end.'}</Empty>
      )}
      {page.data && page.data.data.length > 0 && (
        <div class="table-wrap requests-wrap">
          <table class="requests">
            {/* Fixed widths: a long model, key or id is cut short (its whole text in a tooltip) instead of widening the table. */}
            <colgroup>
              <col class="c-when" />
              <col class="c-request" />
              <col class="c-key" />
              <col class="c-model" />
              <col class="c-status" />
              <col class="c-cost" />
              <col class="c-latency" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Request</th>
                <th scope="col">Key</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col" class="num" title="Cost, and tokens in / out">Cost</th>
                <th scope="col" class="num">Latency</th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((row) => <RequestRow key={row.request_id} row={row} chosen={row.request_id === openId} onOpen={onOpen} />)}
            </tbody>
          </table>
        </div>
      )}
      <div class="buttons pager">
        <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>Newer</button>
        <button type="button" class="secondary" disabled={!page.data?.next_cursor} onClick={() => setCursors([...cursors, page.data!.next_cursor!])}>Older</button>
      </div>
    </section>
  );
}

/** Text cut to its cell's width, the whole of it in a tooltip. */
function Cut({ text: value, class: extra }: { text: string; class?: string }) {
  return (
    <span class={`cut${extra ? ` ${extra}` : ''}`} title={value}>
      {value}
    </span>
  );
}

function RequestRow({ row, chosen, onOpen }: { row: LedgerRow; chosen: boolean; onOpen: (row: LedgerRow) => void }) {
  const model = text(row.served_model ?? row.requested_model);
  const asked = row.served_model && row.requested_model && row.requested_model !== row.served_model ? row.requested_model : undefined;
  return (
    <tr class={chosen ? 'chosen' : undefined}>
      <td data-label="When" title={dateTime(row.created_at)}>{shortDateTime(row.created_at)}</td>
      <th scope="row" data-label="Request">
        <button type="button" class="link mono cut" title={row.request_id} aria-label={`Open request ${row.request_id}`} onClick={() => onOpen(row)}>{row.request_id}</button>
        <Cut class="sub" text={`${row.dialect}${row.team_name ? ` · ${row.team_name}` : ''}`} />
      </th>
      <td data-label="Key">
        {row.key_name ? <Cut text={row.key_name} /> : <span class="muted">{row.api_key_id ? 'deleted key' : 'no key'}</span>}
        {(row.end_user || row.tags) && <Cut class="sub" text={[row.end_user ? `for ${row.end_user}` : '', ...(row.tags ?? []).map((t) => `#${t}`)].filter(Boolean).join(' · ')} />}
      </td>
      <td data-label="Model">
        <Cut text={model} />
        <span class="sub cut" title={asked ? `asked ${asked}` : undefined}>
          {asked ? `asked ${asked} · ` : ''}
          {row.provider ?? <NotServed hint={notServedHint(row)} />}
        </span>
      </td>
      <td data-label="Status">
        <Badge tone={statusTone(row.status)}>{row.status}</Badge>
        {row.error_type ? <Cut class="sub" text={row.error_type} /> : row.cache && <span class="sub">cache {row.cache}</span>}
      </td>
      <td class="num" data-label="Cost">
        {usd(row.cost_usd)}
        <span class="sub" title="Tokens in / out">{count(row.input_tokens)} / {count(row.output_tokens)} tok</span>
        {row.cache === 'hit' && <span class="sub" title="What this request would have cost without the response cache">saved {usd(row.saved_usd)}</span>}
      </td>
      <td class="num" data-label="Latency">
        {ms(row.latency_ms)}
        {row.streamed && <span class="sub" title={`Streamed; the first token came after ${ms(row.ttft_ms)}`}>TTFT {ms(row.ttft_ms)}</span>}
      </td>
    </tr>
  );
}
