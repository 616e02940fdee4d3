import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { FormError } from '../components/form-error';
import { PageHeader } from '../components/ui';
import { dateTime } from '../format';
import { failureOf, type FormFailure } from '../form-errors';
import type { LedgerRow } from '../types';
import { RequestDetails, text } from './request-details';
import { RecentRequests } from './request-list';

/** Requests: the ledger's recent requests, and a lookup by the gateway's x-request-id or the caller's own id. */
export function RequestsPage() {
  const [id, setId] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const [rows, setRows] = useState<LedgerRow[]>();
  const [chosen, setChosen] = useState(0);
  // Bumped when a row of the list is opened: the details come into view and take the focus.
  const [opened, setOpened] = useState(0);

  useEffect(() => {
    if (opened === 0) return;
    const details = document.getElementById('request-details');
    details?.scrollIntoView({ block: 'start' });
    details?.focus({ preventScroll: true });
  }, [opened]);

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
  const open = (row: LedgerRow): void => {
    setFailure(undefined);
    setRows([row]);
    setChosen(0);
    setOpened((n) => n + 1);
  };

  return (
    <>
      <PageHeader title="Requests" lead="Every request the gateway answered, from the ledger: what was asked, what served it, how long it took and what it cost. Open one for its details, or look one up by its id." />
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
              <li key={row.request_id}>
                <button type="button" class={`link${index === chosen ? ' current' : ''}`} onClick={() => setChosen(index)}>
                  {dateTime(row.created_at)} · {text(row.served_model)} · {text(row.status)}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {rows && rows[chosen] && <RequestDetails row={rows[chosen]!} />}
      <RecentRequests onOpen={open} openId={rows?.[chosen]?.request_id} />
    </>
  );
}
