import { Badge } from '../components/ui';
import { NotServed, notServedHint } from '../components/not-served';
import { count, dateTime, ms, usd } from '../format';
import type { GuardrailVerdict, LedgerRow } from '../types';

export function text(value: unknown): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

export function statusTone(status: number): 'ok' | 'warn' | 'bad' {
  return status < 400 ? 'ok' : status < 500 ? 'warn' : 'bad';
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

/** Each verdict: the check (level and position), the stage, the action, the kinds found. */
function Guardrails({ verdicts }: { verdicts: GuardrailVerdict[] | null | undefined }) {
  if (!verdicts || verdicts.length === 0) return <span class="muted">Nothing found</span>;
  return (
    <ul class="route-parts">
      {verdicts.map((v, i) => (
        <li key={i}>
          <Badge tone={v.action === 'block' ? 'bad' : v.action === 'redact' ? 'warn' : 'ok'}>{v.action}</Badge>{' '}
          <code>{`${v.source}[${v.index}] ${v.check}`}</code> on {v.stage}
          {v.kinds.length > 0 ? `: ${v.kinds.join(', ')}` : ''}
          {v.unavailable ? ` (unavailable: ${v.unavailable})` : ''}
        </li>
      ))}
    </ul>
  );
}

export function RequestDetails({ row }: { row: LedgerRow }) {
  const status = row.status;
  const fields: Array<[string, preact.ComponentChildren]> = [
    ['Request ID', <code>{text(row.request_id)}</code>],
    ["Caller's request ID", text(row.client_request_id)],
    ['When', dateTime(row.created_at)],
    ['Status', <Badge tone={statusTone(status)}>{`${status}${row.error_type ? ` ${row.error_type}` : ''}`}</Badge>],
    ['Key', text(row.key_name)],
    ['Team', text(row.team_name)],
    ['End user', text(row.end_user)],
    ['Tags', row.tags && row.tags.length > 0 ? row.tags.join(', ') : text(null)],
    ['Dialect', text(row.dialect)],
    ['Requested model', text(row.requested_model)],
    ['Served model', row.served_model ? <strong>{row.served_model}</strong> : <NotServed hint={notServedHint(row)} />],
    ['Provider', row.provider ?? <NotServed hint={notServedHint(row)} />],
    ['Attempts', text(row.attempts)],
    ['Tokens in / out', `${count(row.input_tokens)} / ${count(row.output_tokens)}`],
    ['Prompt cache reads / writes', `${count(row.cached_tokens)} / ${count(row.cache_write_tokens)} tokens`],
    ['Reasoning tokens', count(row.reasoning_tokens)],
    ['Cost', usd(row.cost_usd)],
    ['Response cache', row.cache === 'hit' ? <Badge tone="ok">hit</Badge> : row.cache === 'miss' ? 'miss' : <span class="muted">not used</span>],
    ['Saved by the cache', row.cache === 'hit' ? usd(row.saved_usd) : '—'],
    ['Latency', ms(row.latency_ms)],
    ['Time to first token', ms(row.ttft_ms)],
    ['Streamed', row.streamed ? 'yes' : 'no'],
  ];
  return (
    <section class="panel" aria-label="Request details" id="request-details" tabIndex={-1}>
      <h2>Request {text(row.request_id)}</h2>
      <dl class="details">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {!row.provider && (
          <div class="wide">
            <dt>Why not served</dt>
            <dd>{notServedHint(row)}</dd>
          </div>
        )}
        <div class="wide">
          <dt>Guardrails</dt>
          <dd>
            <Guardrails verdicts={row.guardrails} />
          </dd>
        </div>
        <div class="wide">
          <dt>Route decision</dt>
          <dd>
            <RouteDecision route={row.route} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
