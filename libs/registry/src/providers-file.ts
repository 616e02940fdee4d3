import { readFileSync } from 'node:fs';
import { validateBody } from '@rosetta/platform';
import { parse as parseYaml } from 'yaml';
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
      (p.endpoints ?? []).forEach((e, j) => e.router_prior && routerPriorQuality(e.router_prior, `providers[${i}].endpoints[${j}].router_prior`)),
    );
    return file;
  } catch (error) {
    throw new Error(`PROVIDERS_FILE: ${(error as Error).message}`);
  }
}
