import { Inject, Injectable, Optional } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { ENDPOINT_HEALTH, NO_HEALTH, type EndpointHealthPort } from './endpoint-health.port';
import { toModelList, toModelRecord } from './model-record';
import { modelNotFound, parseModelId } from './model-id';
import { RegistryService } from './registry.service';

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
    const callable = this.registry.list().filter((m) => this.registry.callable(m));
    return toModelList(allowed ? callable.filter((m) => m.isAuto || allowed.includes(m.id)) : callable);
  }

  /** `value` percent-decoded; `allowed` is the caller's key's allow-list. */
  get(value: string, allowed: readonly string[] | null | undefined): Record<string, unknown> {
    const found = this.registry.find(value);
    if (found && allowed && !found.isAuto && !allowed.includes(found.id)) {
      throw new GatewayError('permission_error', `This key may not use model '${found.id}'; it may use: ${allowed.join(', ') || 'no model'}`, { param: 'id' });
    }
    if (found) return toModelRecord(found, { provider: (slug) => this.registry.provider(slug), health: (key) => this.health.view(key) });
    if (!/^\d+$/.test(value)) parseModelId(value, this.registry.namespace, 'id');
    throw modelNotFound(value, 'id');
  }
}
