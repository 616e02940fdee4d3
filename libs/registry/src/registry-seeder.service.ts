import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { AUTO_MODEL_NAME, loadCatalog } from './catalog';
import { readProvidersFile } from './providers-file';
import { RegistryRepository } from './registry.repository';
import { RegistryWriterService } from './registry-writer.service';

const CATALOG_SETTING = 'catalog_version';

/**
 * Seeds the registry at start: the shipped catalog when its version changed, then PROVIDERS_FILE
 * (authoritative for its own entries on every start). Admin edits are never overwritten.
 */
@Injectable()
export class RegistrySeederService {
  constructor(
    private readonly repository: RegistryRepository,
    private readonly writer: RegistryWriterService,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async seed(): Promise<void> {
    const file = this.config.providersFile ? readProvidersFile(this.config.providersFile) : undefined;
    await this.repository.withLock(async () => {
      await this.seedCatalog();
      for (const entry of file?.providers ?? []) await this.writer.applyProvider(entry, 'file');
      const resealed = await this.repository.resealProviderSecrets();
      if (resealed > 0) this.logger.info({ providers: resealed }, 'registry: provider secrets sealed under the current SECRETS_KEY');
    });
    if (file) this.logger.info({ providers: file.providers.map((p) => p.slug) }, 'registry: providers file applied');
  }

  private async seedCatalog(): Promise<void> {
    const catalog = loadCatalog();
    if ((await this.repository.getSetting(CATALOG_SETTING)) === catalog.version) return;
    for (const provider of catalog.providers) await this.writer.applyProvider(provider, 'catalog');
    await this.writer.applyModel(
      { name: AUTO_MODEL_NAME, display_name: 'Rosetta Auto (Mixture of Models)', author: 'rosetta', description: 'Routes each prompt to the model that suits it.', created_at: '2026-11-21T00:00:00Z' },
      'catalog',
    );
    // Catalog endpoints name their provider; applyModel writes them beside the model.
    for (const model of catalog.models) await this.writer.applyModel(model, 'catalog');
    await this.repository.setSetting(CATALOG_SETTING, catalog.version);
    this.logger.info({ version: catalog.version, models: catalog.models.length }, 'registry: catalog seeded');
  }
}
