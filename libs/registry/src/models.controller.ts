import { Controller, Get, Inject, Optional, Param } from '@nestjs/common';
import { ENDPOINT_HEALTH, NO_HEALTH, type EndpointHealthPort } from './endpoint-health.port';
import { toModelList, toModelRecord } from './model-record';
import { modelNotFound, parseModelId } from './model-id';
import { RegistryService } from './registry.service';

/** `GET /v1/models[/{id}]`: the list both SDKs parse, and one model record by id or integer id. */
@Controller('v1/models')
export class ModelsController {
  private readonly health: EndpointHealthPort;

  constructor(
    private readonly registry: RegistryService,
    @Optional() @Inject(ENDPOINT_HEALTH) health?: EndpointHealthPort,
  ) {
    this.health = health ?? NO_HEALTH;
  }

  @Get()
  list(): Record<string, unknown> {
    return toModelList(this.registry.list());
  }

  @Get('*id')
  get(@Param('id') id: string | string[]): Record<string, unknown> {
    const value = Array.isArray(id) ? id.join('/') : id;
    const found = this.registry.find(value);
    if (found) return toModelRecord(found, { provider: (slug) => this.registry.provider(slug), health: (key) => this.health.view(key) });
    if (!/^\d+$/.test(value)) parseModelId(value, this.registry.namespace, 'id');
    throw modelNotFound(value, 'id');
  }
}
