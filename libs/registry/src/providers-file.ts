import { readFileSync } from 'node:fs';
import { validateBody } from '@rosetta/platform';
import { parse as parseYaml } from 'yaml';
import { endpointPricing } from './endpoint-prices';
import { ProvidersFileDto, routerPriorQuality } from './provider-entry.dto';

/**
 * PROVIDERS_FILE: extra upstreams (any OpenAI-compatible server is one entry away), JSON or YAML,
 * in the shape of ARCHITECTURE §5. A bad file stops the start with the field named.
 */
export function readProvidersFile(path: string): ProvidersFileDto {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`PROVIDERS_FILE: cannot read '${path}': ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new Error(`PROVIDERS_FILE: '${path}' is not valid ${/\.json$/i.test(path) ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
  try {
    const file = validateBody(ProvidersFileDto, parsed, 'providers file');
    file.providers.forEach((p, i) =>
      (p.endpoints ?? []).forEach((e, j) => {
        if (e.router_prior) routerPriorQuality(e.router_prior, `providers[${i}].endpoints[${j}].router_prior`);
        // Prices in the wrong unit stop the start here, named by their place in the file.
        endpointPricing(e, `providers[${i}].endpoints[${j}]`);
      }),
    );
    return file;
  } catch (error) {
    throw new Error(`PROVIDERS_FILE: ${(error as Error).message}`);
  }
}
