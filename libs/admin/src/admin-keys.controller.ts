import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiKeyService, Public, type ApiKeyRecord } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { PlanCacheService } from '@rosetta/limits';
import { validateBody } from '@rosetta/platform';
import { CreateKeyDto } from './admin.dto';
import { AdminGuard } from './admin.guard';

export function presentKey(record: ApiKeyRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    plan: record.plan,
    prefix: `rsk_${record.lookupId}`,
    rpm: record.rpm,
    tpm: record.tpm,
    route_knob: record.routeKnob,
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt?.toISOString() ?? null,
    revoked_at: record.revokedAt?.toISOString() ?? null,
    last_used_at: record.lastUsedAt?.toISOString() ?? null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Public()
@UseGuards(AdminGuard)
@Controller('admin/keys')
export class AdminKeysController {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly plans: PlanCacheService,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Body() body: unknown): Promise<Record<string, unknown>> {
    const dto = validateBody(CreateKeyDto, body);
    if (!this.plans.get(dto.plan)) {
      throw GatewayError.invalidRequest(`Unknown plan '${dto.plan}'; see GET /admin/plans`, 'plan');
    }
    const { record, key } = await this.keys.create({
      name: dto.name,
      plan: dto.plan,
      rpm: dto.rpm,
      tpm: dto.tpm,
      routeKnob: dto.route_knob,
      expiresAt: dto.expires_at ? new Date(dto.expires_at) : null,
    });
    return { ...presentKey(record), key };
  }

  @Get()
  async list(): Promise<Record<string, unknown>[]> {
    return (await this.keys.list()).map(presentKey);
  }

  @Delete(':id')
  async revoke(@Param('id') id: string): Promise<Record<string, unknown>> {
    const record = UUID.test(id) ? await this.keys.revoke(id) : null;
    if (!record) throw new GatewayError('not_found_error', `API key '${id}' not found`);
    return presentKey(record);
  }
}
