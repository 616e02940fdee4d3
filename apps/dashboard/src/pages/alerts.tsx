import { useState } from 'preact/hooks';
import { api, query } from '../api';
import { FormError } from '../components/form-error';
import { Badge, Empty, ErrorNote, Field, Loading, PageHeader } from '../components/ui';
import { dateTime } from '../format';
import { failureOf, messageFor, type FormFailure } from '../form-errors';
import { useResource } from '../use-resource';
import type { AuditEntry, Webhook } from '../types';

const EVENTS = [
  ['budget.threshold', 'Budgets at 50, 80 and 100 %'],
  ['provider.circuit_open', 'A provider failing (circuit open)'],
  ['provider.circuit_closed', 'A provider recovered'],
  ['guardrail.blocked', 'Guardrail blocks past the hourly limit'],
  ['spend.daily', "Yesterday's spend, after midnight UTC"],
] as const;

const TONES = { delivered: 'ok', pending: 'warn', failed: 'bad', retry: 'warn' } as const;

function WebhookForm({ onCreated, onCancel }: { onCreated: (webhook: Webhook) => void; onCancel: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['budget.threshold']);
  const [secret, setSecret] = useState('');
  const [failure, setFailure] = useState<FormFailure>();
  const [busy, setBusy] = useState(false);
  const toggle = (event: string, on: boolean): void => setEvents((now) => (on ? [...now, event] : now.filter((e) => e !== event)));

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      onCreated(await api<Webhook>('POST', '/admin/webhooks', { url: url.trim(), events, ...(secret ? { secret } : {}) }));
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} noValidate aria-label="Add webhook">
      <h2>Add webhook</h2>
      <div class="grid">
        <Field label="URL" id="webhook-url" wide error={messageFor(failure, 'url')} hint="Where alerts are POSTed (a Slack incoming webhook works as is)">
          <input id="webhook-url" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </Field>
        <fieldset class="field two-columns">
          <legend>Events</legend>
          {EVENTS.map(([event, label]) => (
            <label key={event} class="inline">
              <input type="checkbox" checked={events.includes(event)} onChange={(e) => toggle(event, e.currentTarget.checked)} /> {label} <code>{event}</code>
            </label>
          ))}
          {messageFor(failure, 'events') && <small class="field-error" role="alert">{messageFor(failure, 'events')}</small>}
        </fieldset>
        <Field label="Signing secret" id="webhook-secret" error={messageFor(failure, 'secret')} hint="16 characters or more; empty: one is generated and shown once">
          <input id="webhook-secret" type="password" autoComplete="new-password" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
        </Field>
      </div>
      <FormError failure={failure} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>Add webhook</button>
        <button type="button" class="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

/** A generated signing secret, shown this once. */
function NewSecret({ webhook, onDone }: { webhook: Webhook; onDone: () => void }) {
  return (
    <section class="panel secret" aria-label="New webhook secret">
      <h2>Webhook added</h2>
      <p>
        Its signing secret is <strong>shown only this once</strong>: the receiver checks <code>x-rosetta-signature</code> with it.
      </p>
      <div class="secret-row">
        <code data-testid="new-webhook-secret">{webhook.secret}</code>
      </div>
      <button type="button" class="secondary" onClick={onDone}>Done</button>
    </section>
  );
}

function Deliveries() {
  const log = useResource<{ data: AuditEntry[] }>(`/admin/audit${query({ action: 'webhook.deliver', limit: 25 })}`, 10_000);
  if (log.error) return <ErrorNote error={log.error} retry={log.reload} />;
  if (!log.data) return <Loading what="recent deliveries" />;
  if (log.data.data.length === 0) return <Empty>No deliveries yet.</Empty>;
  return (
    <div class="table-wrap">
      <table aria-label="Recent deliveries">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
            <th scope="col">Attempt</th>
            <th scope="col">Answer</th>
          </tr>
        </thead>
        <tbody>
          {log.data.data.map((entry) => {
            const outcome = String(entry.details?.['outcome'] ?? '');
            return (
              <tr key={entry.id}>
                <td data-label="When">{dateTime(entry.at)}</td>
                <td data-label="Event"><code>{entry.target_name}</code></td>
                <td data-label="Outcome"><Badge tone={TONES[outcome as keyof typeof TONES] ?? 'neutral'}>{outcome}</Badge></td>
                <td data-label="Attempt">{String(entry.details?.['attempt'] ?? '')}</td>
                <td data-label="Answer">{String(entry.details?.['http_status'] ?? entry.details?.['error'] ?? '')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Alerts: the webhooks events go to, and what was delivered lately. */
export function AlertsPage({ canWrite }: { canWrite: boolean }) {
  const webhooks = useResource<Webhook[]>('/admin/webhooks');
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<Webhook>();
  const [failure, setFailure] = useState<string>();
  const remove = async (webhook: Webhook): Promise<void> => {
    setFailure(undefined);
    try {
      await api('DELETE', `/admin/webhooks/${webhook.id}`);
      webhooks.reload();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <>
      <PageHeader
        title="Alerts"
        lead="Budgets running out, providers failing and recovering, guardrails blocking, and the daily spend — POSTed to your webhooks, signed, once per event."
        actions={canWrite && !adding ? <button type="button" class="primary" onClick={() => setAdding(true)}>Add webhook</button> : undefined}
      />
      {adding && (
        <WebhookForm
          onCreated={(webhook) => {
            setAdding(false);
            if (webhook.secret) setCreated(webhook);
            webhooks.reload();
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {created && <NewSecret webhook={created} onDone={() => setCreated(undefined)} />}
      {failure && <ErrorNote error={failure} />}
      {webhooks.error && <ErrorNote error={webhooks.error} retry={webhooks.reload} />}
      {!webhooks.data && !webhooks.error && <Loading what="webhooks" />}
      {webhooks.data?.length === 0 && <Empty>No webhooks yet{canWrite ? ': press “Add webhook”.' : '.'}</Empty>}
      {webhooks.data && webhooks.data.length > 0 && (
        <div class="table-wrap">
          <table aria-label="Webhooks">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Last delivery</th>
                <th scope="col">Added</th>
                {canWrite && <th scope="col"><span class="visually-hidden">Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {webhooks.data.map((webhook) => (
                <tr key={webhook.id}>
                  <th scope="row" data-label="URL"><code>{webhook.url}</code></th>
                  <td data-label="Events">{webhook.events.join(', ')}</td>
                  <td data-label="Last delivery">
                    {webhook.last_delivery ? (
                      <>
                        <Badge tone={TONES[webhook.last_delivery.status]}>{webhook.last_delivery.status}</Badge> {dateTime(webhook.last_delivery.at)}
                      </>
                    ) : (
                      <span class="muted">None yet</span>
                    )}
                  </td>
                  <td data-label="Added">{dateTime(webhook.created_at)}</td>
                  {canWrite && (
                    <td class="row-actions">
                      <button type="button" class="danger small" onClick={() => void remove(webhook)} aria-label={`Delete webhook ${webhook.url}`}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Recent deliveries</h2>
      <Deliveries />
    </>
  );
}
