import { Inject, Injectable, Optional } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { ENDPOINT_HEALTH, NO_HEALTH, type EndpointHealthPort } from './endpoint-health.port';
import { toModelList, toModelRecord } from './model-record';
import { modelNotFound, parseModelId } from './model-id';
import { RegistryService, type RegistryModel } from './registry.service';

/** `GET /v1/models[/{id}]`: the list both SDKs parse, and one model record by id or integer id. */
@Injectable()
export class ModelsEndpoint {
  private readonly health: EndpointHealthPort;

  constructor(
    private readonly registry: RegistryService,
    @Optional() @Inject(ENDPOINT_HEALTH) health?: EndpointHealthPort,
  ) {
    this.health = health ?? NO_HEALTH;
  }

  /**
   * Only what can be called: models some configured provider serves (a model the operator has no
   * key for would only answer 503), and within the caller's key's allow-list.
   */
  list(allowed: readonly string[] | null | undefined): Record<string, unknown> {
    return toModelList(this.listed(allowed));
  }

  /** The models a key sees listed, in every dialect's model list (`/v1/models`, `/v1beta/models`). */
  listed(allowed: readonly string[] | null | undefined): RegistryModel[] {
    const callable = this.registry.list().filter((m) => this.registry.callable(m));
    return allowed ? callable.filter((m) => m.isAuto || allowed.includes(m.id)) : callable;
  }

  /** `model` if the key may use it, else a permission error naming `param`. */
  permitted(model: RegistryModel, allowed: readonly string[] | null | undefined, param: string): RegistryModel {
    if (allowed && !model.isAuto && !allowed.includes(model.id)) {
      throw new GatewayError('permission_error', `This key may not use model '${model.id}'; it may use: ${allowed.join(', ') || 'no model'}`, { param });
    }
    return model;
  }

  /** `value` percent-decoded; `allowed` is the caller's key's allow-list. */
  get(value: string, allowed: readonly string[] | null | undefined): Record<string, unknown> {
    const found = this.registry.find(value);
    if (found) this.permitted(found, allowed, 'id');
    if (found) return toModelRecord(found, { provider: (slug) => this.registry.provider(slug), health: (key) => this.health.view(key) });
    if (!/^\d+$/.test(value)) parseModelId(value, this.registry.namespace, 'id');
    throw modelNotFound(value, 'id');
  }
}
