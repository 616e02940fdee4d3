import { useState } from 'preact/hooks';
import { api } from '../api';
import { FormError } from '../components/form-error';
import { ADD_A_PROVIDER, NotServed } from '../components/not-served';
import { PageHeader } from '../components/ui';
import { usd } from '../format';
import { failureOf, type FormFailure } from '../form-errors';
import { useResource } from '../use-resource';
import type { Key } from '../types';

interface Explanation {
  dialect: string;
  model: string;
  chosen?: string;
  route: string | null;
  prompt_tokens: number;
  decision: null | {
    chosen: string;
    mode: string;
    plan: string[];
    knob: number;
    signals: Array<{ name: string; value: number | string | boolean; confidence: number }>;
    candidates: Array<{ id: string; quality: number; costUsd: number; score: number }>;
    reasons: string[];
  };
  /** excluded_by: the filter that removed the model's last endpoint; `configured` (no provider with a key and enabled) or null (no endpoints) is "not served". */
  filters: Array<{ model: string; eligible: string[]; excluded_by: string | null }>;
  attempts: Array<{ model: string; provider: string; upstream_model: string }>;
}

const SAMPLE = 'Write a SQL query that returns the five customers with the highest total order value.';

/** What the body is: JSON of any dialect's request, or else a plain prompt. */
function inputOf(text: string): { request: unknown } | { prompt: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return { request: JSON.parse(trimmed) };
    } catch {
      // Not JSON after all: route it as text.
    }
  }
  return { prompt: text };
}

function Decision({ result }: { result: Explanation }) {
  const decision = result.decision;
  const best = decision ? Math.max(...decision.candidates.map((c) => c.score)) : 0;
  return (
    <section class="panel" aria-label="Routing decision">
      <h2>
        Routed to <strong>{result.chosen ?? '—'}</strong>
      </h2>
      <p class="muted">
        Read as {result.dialect} · requested {result.model} · about {result.prompt_tokens} prompt tokens
        {decision ? ` · mode ${decision.mode} · knob ${decision.knob.toFixed(2)}` : ' · a concrete model: no Mixture decision'}
      </p>
      {decision && (
        <>
          {decision.plan.length > 1 && (
            <p>
              {decision.mode === 'cascade' ? 'Cascade: the cheaper models answer first; the next is called only when they disagree. ' : ''}
              Plan: <strong>{decision.plan.join(' → ')}</strong>
            </p>
          )}
          <h3>Why</h3>
          <ul>{decision.reasons.map((reason) => <li key={reason}>{reason}</li>)}</ul>
          <div class="two">
            <div class="table-wrap">
              <table>
                <caption>Signals</caption>
                <thead><tr><th scope="col">Signal</th><th scope="col">Value</th><th scope="col" class="num">Confidence</th></tr></thead>
                <tbody>
                  {decision.signals.map((s) => (
                    <tr key={s.name}><th scope="row">{s.name}</th><td>{String(s.value)}</td><td class="num">{(s.confidence * 100).toFixed(0)}%</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div class="table-wrap">
              <table>
                <caption>Candidates</caption>
                <thead><tr><th scope="col">Model</th><th scope="col" class="num">Quality</th><th scope="col" class="num">Cost</th><th scope="col" class="num">Score</th></tr></thead>
                <tbody>
                  {[...decision.candidates].sort((a, b) => b.score - a.score).map((c) => (
                    <tr key={c.id} class={c.id === decision.chosen ? 'chosen' : undefined}>
                      <th scope="row">{c.id}{c.id === decision.chosen && <span class="badge ok">chosen</span>}</th>
                      <td class="num">{(c.quality * 100).toFixed(1)}%</td>
                      <td class="num">{usd(c.costUsd)}</td>
                      <td class="num">{c.score.toFixed(3)}{c.score === best ? ' ★' : ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        </>
      )}
      <h3>Attempt order</h3>
      <ol>{result.attempts.map((a, i) => <li key={i}>{a.model} via {a.provider} ({a.upstream_model})</li>)}</ol>
      <details>
        <summary>Filters per model</summary>
        <ul class="filters-per-model">
          {result.filters.map((f) => (
            <li key={f.model}>
              {f.model}:{' '}
              {f.eligible.length ? (
                `eligible at ${f.eligible.join(', ')}`
              ) : f.excluded_by && f.excluded_by !== 'configured' ? (
                `excluded by ${f.excluded_by}`
              ) : (
                <>
                  <NotServed hint={ADD_A_PROVIDER} /> — {ADD_A_PROVIDER}
                </>
              )}
            </li>
          ))}
        </ul>
      </details>
      {result.route && <p class="muted small">x-rosetta-route: <code>{result.route}</code></p>}
    </section>
  );
}

/** Router: paste a prompt or a request body of any dialect and see what rosetta/auto would do, without calling a model. */
export function RouterPage() {
  const keys = useResource<Key[]>('/admin/keys');
  const [text, setText] = useState(SAMPLE);
  const [keyId, setKeyId] = useState('');
  const [result, setResult] = useState<Explanation>();
  const [failure, setFailure] = useState<FormFailure>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFailure(undefined);
    setBusy(true);
    try {
      setResult(await api<Explanation>('POST', '/admin/route', { ...inputOf(text), ...(keyId ? { key_id: keyId } : {}) }));
    } catch (error) {
      setResult(undefined);
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Router" lead="What rosetta/auto would choose for a prompt, and why: the signals it read, every candidate's predicted quality, cost and score. Nothing is sent to a model." />
      <form class="panel form" onSubmit={submit} noValidate>
        <div class="field">
          <label for="route-input">Prompt or request body</label>
          <textarea id="route-input" rows={7} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <small class="hint">
            Plain text is one user message. JSON is read as a request body of any dialect: OpenAI chat completions (<code>messages</code>), Anthropic messages, Gemini (<code>contents</code>) or the
            OpenAI Responses API (<code>input</code>, as sent to /v1/responses); without a model, rosetta/auto.
          </small>
        </div>
        <div class="field">
          <label for="route-key">Route as key</label>
          <select id="route-key" value={keyId} onChange={(e) => setKeyId(e.currentTarget.value)}>
            <option value="">No key (every model, the default knob)</option>
            {(keys.data ?? []).filter((k) => !k.revoked_at).map((k) => <option key={k.id} value={k.id}>{k.name}</option>)}
          </select>
        </div>
        <FormError failure={failure} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>{busy ? 'Routing…' : 'Route'}</button>
        </div>
      </form>
      {result && <Decision result={result} />}
    </>
  );
}
