import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelEntryDto, ProviderEntryDto } from './provider-entry.dto';

/**
 * The versioned seed catalog (`libs/registry/catalog/catalog.json`): real models of OpenAI,
 * Anthropic and Google and open models on OpenAI-compatible hosts, with public prices (USD per
 * token) and limits; its `sources` say where each provider's figures came from.
 */
export interface Catalog {
  version: string;
  sources: Record<string, string>;
  providers: ProviderEntryDto[];
  models: ModelEntryDto[];
}

export const AUTO_MODEL_NAME = 'auto';

export function loadCatalog(): Catalog {
  // dist/libs/registry/src → libs/registry/catalog, and the same from the sources under ts-jest.
  const candidates = [join(__dirname, '..', 'catalog', 'catalog.json'), join(__dirname, '..', '..', '..', '..', 'libs', 'registry', 'catalog', 'catalog.json')];
  for (const path of candidates) {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as Catalog;
    } catch {
      // try the next location
    }
  }
  throw new Error('registry catalog not found (libs/registry/catalog/catalog.json)');
}
