import { useState } from 'preact/hooks';
import { api } from '../api';
import { FormError } from '../components/form-error';
import { Badge, PageHeader } from '../components/ui';
import { count, dateTime, ms, usd } from '../format';
import { failureOf, type FormFailure } from '../form-errors';

type LedgerRow = Record<string, unknown>;

function text(value: unknown): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** `x-rosetta-route` style text: "model=…; mode=…; knob=…" shown as its parts. */
function RouteDecision({ route }: { route: unknown }) {
  if (typeof route !== 'string' || route === '') return <span class="muted">Not routed by rosetta/auto</span>;
  const parts = route.split(/;\s*/).filter(Boolean);
  return (
    <ul class="route-parts">
      {parts.map((part) => (
        <li key={part}>
          <code>{part}</code>
        </li>
      ))}
    </ul>
  );
}

function RequestDetails({ row }: { row: LedgerRow }) {
  const status = Number(row['status']);
  const fields: Array<[string, preact.ComponentChildren]> = [
    ['Request ID', <code>{text(row['request_id'])}</code>],
    ["Caller's request ID", text(row['client_request_id'])],
    ['When', dateTime(row['created_at'] as string)],
    ['Status', <Badge tone={status < 400 ? 'ok' : status < 500 ? 'warn' : 'bad'}>{`${status}${row['error_type'] ? ` ${String(row['error_type'])}` : ''}`}</Badge>],
    ['Key', text(row['key_name'])],
    ['Team', text(row['team_name'])],
    ['Dialect', text(row['dialect'])],
    ['Requested model', text(row['requested_model'])],
    ['Served model', <strong>{text(row['served_model'])}</strong>],
    ['Provider', text(row['provider'])],
    ['Attempts', text(row['attempts'])],
    ['Tokens in / out', `${count(row['input_tokens'] as number)} / ${count(row['output_tokens'] as number)}`],
    ['Cached / reasoning tokens', `${count(row['cached_tokens'] as number)} / ${count(row['reasoning_tokens'] as number)}`],
    ['Cost', usd(row['cost_usd'] as string)],
    ['Latency', ms(row['latency_ms'] as number)],
    ['Time to first token', ms(row['ttft_ms'] as number | null)],
    ['Streamed', row['streamed'] ? 'yes' : 'no'],
  ];
  return (
    <section class="panel" aria-label="Request details">
      <h2>Request {text(row['request_id'])}</h2>
      <dl class="details">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div class="wide">
          <dt>Route decision</dt>
          <dd>
            <RouteDecision route={row['route']} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** Support lookups: one request by the gateway's x-request-id or the caller's own id. */
export function RequestsPage() {
  const [id, setId] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const [rows, setRows] = useState<LedgerRow[]>();
  const [chosen, setChosen] = useState(0);

  const lookUp = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFailure(undefined);
    setRows(undefined);
    if (id.trim() === '') return setFailure({ message: "Enter a request id: the x-request-id of a response, or the caller's own x-request-id." });
    setBusy(true);
    try {
      const found = await api<LedgerRow & { matches?: LedgerRow[] }>('GET', `/admin/requests/${encodeURIComponent(id.trim())}`);
      setRows(found.matches ?? [found]);
      setChosen(0);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Requests" lead="Find one request in the ledger: what was asked, what served it, how long it took and what it cost." />
      <form class="panel lookup" onSubmit={lookUp} noValidate>
        <div class="field grow">
          <label for="request-id">Request ID</label>
          <input id="request-id" value={id} spellcheck={false} placeholder="req_… or the caller's own x-request-id" onInput={(e) => setId(e.currentTarget.value)} />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Looking…' : 'Look up'}
        </button>
      </form>
      <FormError failure={failure} />
      {rows && rows.length > 1 && (
        <section class="panel" aria-label="Matches">
          <h2>{rows.length} requests carry this caller id</h2>
          <ul class="matches">
            {rows.map((row, index) => (
              <li key={String(row['request_id'])}>
                <button type="button" class={`link${index === chosen ? ' current' : ''}`} onClick={() => setChosen(index)}>
                  {dateTime(row['created_at'] as string)} · {text(row['served_model'])} · {text(row['status'])}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {rows && rows[chosen] && <RequestDetails row={rows[chosen]!} />}
      {!rows && !failure && <p class="muted">Every response carries its id in the x-request-id header; a caller's own x-request-id is kept as its client request id.</p>}
    </>
  );
}
