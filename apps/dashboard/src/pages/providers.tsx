import { useState } from 'preact/hooks';
import { ProviderForm } from './provider-form';
import { UnservedModels } from './unserved-models';
import { Badge, Empty, ErrorNote, Loading, PageHeader } from '../components/ui';
import { ms, pct } from '../format';
import { editableInForm } from '../provider-platforms';
import { useResource } from '../use-resource';
import type { EndpointHealth, Provider } from '../types';

const STATUS: Record<number, { tone: 'ok' | 'warn' | 'bad' | 'neutral'; text: string }> = {
  0: { tone: 'ok', text: 'Operational' },
  1: { tone: 'warn', text: 'Degraded' },
  2: { tone: 'bad', text: 'Down' },
  3: { tone: 'neutral', text: 'Disabled' },
};
const CIRCUIT = { closed: 'ok', 'half-open': 'warn', open: 'bad' } as const;

const pair = (p50: number | null, p90: number | null, format: (v: number) => string): string => (p50 === null ? '—' : `${format(p50)} / ${p90 === null ? '—' : format(p90)}`);
const tps = (v: number): string => `${v.toFixed(v < 10 ? 1 : 0)}`;

/** Why a provider's endpoints are not in use, when they are not: its health figures would say nothing. */
function idleReason(provider: Provider): string | undefined {
  if (provider.disabled) return 'Not called (disabled)';
  if (!provider.configured) return 'Not called (no key)';
  return undefined;
}

function HealthCells({ health, idle }: { health: EndpointHealth; idle?: string }) {
  const status = idle ? { tone: 'neutral' as const, text: idle } : (STATUS[health.status] ?? STATUS[0]!);
  return (
    <>
      <td data-label="Status"><Badge tone={status.tone}>{status.text}</Badge></td>
      <td class="num" data-label="Uptime (30 min)">{pct(health.uptime_pct)}<span class="muted small"> {health.calls_30m} {health.calls_30m === 1 ? 'call' : 'calls'}</span></td>
      <td class="num" data-label="TTFT p50 / p90">{pair(health.ttft_ms.p50, health.ttft_ms.p90, ms)}</td>
      <td class="num" data-label="Tokens/s p50 / p90">{pair(health.throughput_tps.p50, health.throughput_tps.p90, tps)}</td>
      <td class="num" data-label="Latency p50">{ms(health.latency_ms.p50)}</td>
      <td data-label="Circuit">{idle ? <span class="muted">—</span> : <Badge tone={CIRCUIT[health.circuit.state]}>{health.circuit.state}</Badge>}</td>
    </>
  );
}

/** Providers and models: every endpoint's live health, refreshed every 10 s; add or edit an OpenAI-compatible or cloud provider. */
export function ProvidersPage({ canWrite }: { canWrite: boolean }) {
  const providers = useResource<Provider[]>('/admin/providers', 10_000);
  const [editing, setEditing] = useState<Provider | 'new'>();
  const done = (): void => {
    setEditing(undefined);
    providers.reload();
  };
  return (
    <>
      <PageHeader
        title="Providers"
        lead="Where each model is served, and how each endpoint is doing over the last 30 minutes (shared by every replica). Times are p50 / p90."
        actions={canWrite && !editing ? <button type="button" class="primary" onClick={() => setEditing('new')}>Add provider</button> : undefined}
      />
      {editing && <ProviderForm provider={editing === 'new' ? undefined : editing} onDone={done} onCancel={() => setEditing(undefined)} />}
      {providers.error && <ErrorNote error={providers.error} retry={providers.reload} />}
      {!providers.data && !providers.error && <Loading what="providers" />}
      {providers.data?.length === 0 && <Empty>No providers.</Empty>}
      {providers.data && <UnservedModels providers={providers.data} />}
      {providers.data?.map((provider) => (
        <section class="panel provider" key={provider.slug} aria-label={`Provider ${provider.slug}`}>
          <header class="provider-head">
            <h2>{provider.slug}</h2>
            <span class="muted">{platformLabel(provider)}{provider.protocol} · {provider.base_url ?? 'no address'}</span>
            {provider.disabled ? <Badge tone="neutral">Disabled</Badge> : provider.configured ? <Badge tone="ok">Configured</Badge> : <Badge tone="warn">No key: not called</Badge>}
            {canWrite && editableInForm(provider) && (
              <button type="button" class="secondary small" onClick={() => setEditing(provider)} aria-label={`Edit provider ${provider.slug}`}>Edit</button>
            )}
          </header>
          {provider.endpoints.length === 0 ? (
            <p class="muted">No models.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Model</th>
                    <th scope="col">Status</th>
                    <th scope="col" class="num">Uptime (30 min)</th>
                    <th scope="col" class="num">TTFT p50 / p90</th>
                    <th scope="col" class="num">Tokens/s p50 / p90</th>
                    <th scope="col" class="num">Latency p50</th>
                    <th scope="col">Circuit</th>
                  </tr>
                </thead>
                <tbody>
                  {provider.endpoints.map((e) => (
                    <tr key={e.model}>
                      <th scope="row" data-label="Model">{e.model}{e.kind === 'embedding' && <span class="badge neutral">embeddings</span>}<span class="muted small upstream">{e.upstream_model}</span></th>
                      <HealthCells health={e.health} idle={idleReason(provider)} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ))}
    </>
  );
}

/** `Azure OpenAI · ` / `AWS Bedrock (region) · ` / `Vertex AI (project, location) · ` before the protocol, for cloud providers. */
function platformLabel(provider: Provider): string {
  if (provider.platform === 'azure') return `Azure OpenAI${provider.auth === 'azure-ad' ? ' (Entra ID)' : ''} · `;
  if (provider.platform === 'bedrock') return `AWS Bedrock (${provider.region}) · `;
  if (provider.platform === 'vertex') return `Vertex AI (${provider.project}, ${provider.location}) · `;
  return '';
}
