import { Inject, Injectable } from '@nestjs/common';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { AUTO_MODEL_NAME, SEED_CATALOG, type CatalogEndpoint, type CatalogModel } from './catalog';
import { modelNotFound, parseModelId } from './model-id';

export interface RegistryModel extends CatalogModel {
  /** The public id, `rosetta/<name>`. */
  id: string;
  /** The database-style integer id of the model record. */
  numericId: number;
  /** The Mixture of Models: it has no endpoints of its own. */
  isAuto: boolean;
}

export type RegistryEndpoint = CatalogEndpoint;

/**
 * The catalog in memory. The full registry (database, admin edits, live health) replaces the seed
 * later; callers already go through this service only.
 */
@Injectable()
export class RegistryService {
  private readonly models: RegistryModel[];
  private readonly byId: Map<string, RegistryModel>;
  readonly namespace: string;

  constructor(@Inject(ROSETTA_CONFIG) config: RosettaConfig) {
    this.namespace = config.modelNamespace;
    const auto: CatalogModel = {
      name: AUTO_MODEL_NAME,
      displayName: 'Rosetta Auto (Mixture of Models)',
      author: 'rosetta',
      description: 'Routes each prompt to the model that suits it.',
      createdAt: '2026-11-21T00:00:00Z',
      endpoints: [],
    };
    this.models = [auto, ...SEED_CATALOG].map((m, i) => ({
      ...m,
      id: `${this.namespace}/${m.name}`,
      numericId: i + 1,
      isAuto: m.name === AUTO_MODEL_NAME,
    }));
    this.byId = new Map(this.models.map((m) => [m.id, m]));
  }

  get autoModelId(): string {
    return `${this.namespace}/${AUTO_MODEL_NAME}`;
  }

  /** Applies the id rules, then looks the model up: 400 for a malformed id, 404 for an unknown one. */
  resolve(model: unknown, param = 'model'): RegistryModel {
    parseModelId(model, this.namespace, param);
    const found = this.byId.get(model as string);
    if (!found) throw modelNotFound(model as string, param);
    return found;
  }

  /** By public id or by the integer id (`GET /v1/models/3`). */
  find(idOrNumber: string): RegistryModel | undefined {
    if (/^\d+$/.test(idOrNumber)) return this.models.find((m) => m.numericId === Number(idOrNumber));
    return this.byId.get(idOrNumber);
  }

  list(): readonly RegistryModel[] {
    return this.models;
  }
}
