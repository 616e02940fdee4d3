import { Controller, Get, Param } from '@nestjs/common';
import { toModelList, toModelRecord } from './model-record';
import { modelNotFound, parseModelId } from './model-id';
import { RegistryService } from './registry.service';

/** `GET /v1/models[/{id}]`: the list both SDKs parse, and one model record by id or integer id. */
@Controller('v1/models')
export class ModelsController {
  constructor(private readonly registry: RegistryService) {}

  @Get()
  list(): Record<string, unknown> {
    return toModelList(this.registry.list());
  }

  @Get('*id')
  get(@Param('id') id: string | string[]): Record<string, unknown> {
    const value = Array.isArray(id) ? id.join('/') : id;
    const found = this.registry.find(value);
    if (found) return toModelRecord(found);
    if (!/^\d+$/.test(value)) parseModelId(value, this.registry.namespace, 'id');
    throw modelNotFound(value, 'id');
  }
}
