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

/** Beside the code: libs/registry/catalog from the sources, dist/libs/registry/catalog when built. */
const CATALOG_PATH = join(__dirname, '..', 'catalog', 'catalog.json');

export function loadCatalog(): Catalog {
  let text: string;
  try {
    text = readFileSync(CATALOG_PATH, 'utf8');
  } catch (error) {
    throw new Error(
      `registry catalog missing: cannot read '${CATALOG_PATH}' (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); ` +
        '`npm run build` copies libs/registry/catalog into dist/, and a runtime image needs all of dist/',
    );
  }
  return JSON.parse(text) as Catalog;
}
