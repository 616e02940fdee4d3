import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api';
import { usd } from '../format';

/** A loading state in words (and a spinner for the eye). */
export function Loading({ what }: { what: string }) {
  return (
    <p class="state loading" role="status">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

export function ErrorNote({ error, retry }: { error: ApiError | string; retry?: () => void }) {
  const message = typeof error === 'string' ? error : error.message;
  return (
    <div class="state error" role="alert">
      <strong>Something went wrong.</strong> {message}
      {retry && (
        <button type="button" class="link" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="state empty">{children}</div>;
}

export function PageHeader({ title, lead, actions }: { title: string; lead?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{title}</h1>
        {lead && <p class="lead">{lead}</p>}
      </div>
      {actions && <div class="actions">{actions}</div>}
    </header>
  );
}

/** Spend against a budget, as a bar with the figures beside it (the bar is decoration; the text says it). */
export function SpendBar({ spent, budget, period }: { spent?: string | null; budget?: string | null; period?: string | null }) {
  if (!budget) return <span class="muted">{spent !== undefined && spent !== null ? `${usd(spent)} this month, no budget` : 'No budget'}</span>;
  const ratio = Math.min(1, Number(spent ?? 0) / Math.max(Number(budget), 1e-12));
  const level = ratio >= 1 ? 'over' : ratio >= 0.8 ? 'high' : 'ok';
  return (
    <div class="spend">
      <div class={`bar ${level}`} aria-hidden="true">
        <span style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
      </div>
      <span class="figures">
        {usd(spent ?? 0)} of {usd(budget)} {period === 'total' ? 'in total' : `per ${period}`}
      </span>
    </div>
  );
}

export function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'bad' | 'neutral'; children: ComponentChildren }) {
  return <span class={`badge ${tone}`}>{children}</span>;
}

/**
 * A field with its label, a hint, and the server's message when it named this field. `wide` takes
 * two columns of a form's grid, for a choice whose options are sentences or a long address.
 */
export function Field({ label, id, hint, error, wide, children }: { label: string; id: string; hint?: string; error?: string; wide?: boolean; children: ComponentChildren }) {
  return (
    <div class={`field${wide ? ' two-columns' : ''}${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && !error && (
        <small class="hint" id={`${id}-hint`}>
          {hint}
        </small>
      )}
      {error && (
        <small class="field-error" id={`${id}-error`} role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
