import { ADD_A_PROVIDER, NOT_SERVED, NotServed } from '../components/not-served';
import type { Provider } from '../types';

/**
 * Each model no enabled provider with a key serves, with why at each provider that lists it: a
 * request for one of them is refused (configuration_error) until a provider serves it.
 */
export function unservedModels(providers: Provider[]): Array<{ model: string; why: string[] }> {
  const served = new Set(providers.filter((p) => p.configured && !p.disabled).flatMap((p) => p.endpoints.filter((e) => !e.disabled).map((e) => e.model)));
  const why = new Map<string, string[]>();
  for (const provider of providers) {
    for (const endpoint of provider.endpoints) {
      if (served.has(endpoint.model)) continue;
      const reason = provider.disabled ? `${provider.slug} is disabled` : !provider.configured ? `${provider.slug} has no key` : `its endpoint at ${provider.slug} is disabled`;
      why.set(endpoint.model, [...(why.get(endpoint.model) ?? []), reason]);
    }
  }
  return [...why].map(([model, reasons]) => ({ model, why: reasons })).sort((a, b) => a.model.localeCompare(b.model));
}

export function UnservedModels({ providers }: { providers: Provider[] }) {
  const models = unservedModels(providers);
  if (models.length === 0) return null;
  return (
    <details class="panel unserved" aria-label="Models not served">
      <summary>
        <strong>{models.length === 1 ? '1 model is' : `${models.length} models are`}</strong> <NotServed hint={ADD_A_PROVIDER} />: requests for {models.length === 1 ? 'it' : 'them'} are refused.
      </summary>
      <p class="hint">{ADD_A_PROVIDER}</p>
      <ul>
        {models.map(({ model, why }) => (
          <li key={model}>
            <code>{model}</code> — {NOT_SERVED}: {why.join('; ')}
          </li>
        ))}
      </ul>
    </details>
  );
}
