import { Body, Controller, Delete, Get, Param, Patch, Put, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { PLAN_NAME_PATTERN, PlanCacheService, PlanRepository, type PlanRecord } from '@rosetta/limits';
import { validateBody } from '@rosetta/platform';
import { UpdatePlanDto, UpsertPlanDto } from './admin.dto';
import { AdminGuard } from './admin.guard';
import { auditChange, Audited, AuditInterceptor } from './audit/audit.interceptor';

interface StatusSetter {
  status(code: number): unknown;
}

/**
 * Plans: `PUT` replaces a plan whole (both limits, null meaning unlimited), `PATCH` changes only
 * the limits given, `DELETE` removes a plan no key uses. Every replica applies a change within a
 * second (the plan cache reloads on the invalidation bus).
 */
@Public()
@UseGuards(AdminGuard)
@UseInterceptors(AuditInterceptor)
@Controller('admin/plans')
export class AdminPlansController {
  constructor(
    private readonly repository: PlanRepository,
    private readonly cache: PlanCacheService,
  ) {}

  @Get()
  list(): Promise<PlanRecord[]> {
    return this.repository.list();
  }

  @Get(':name')
  async get(@Param('name') name: string): Promise<PlanRecord> {
    return (await this.repository.find(checkedName(name))) ?? notFound(name);
  }

  @Put(':name')
  @Audited('plan.put', 'plan', 'name')
  async upsert(
    @Param('name') name: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: StatusSetter,
  ): Promise<PlanRecord> {
    checkedName(name);
    const dto = validateBody(UpsertPlanDto, body, { rejectUnknown: true });
    auditChange(dto);
    const { plan, created } = await this.repository.upsert({ name, rpm: dto.rpm, tpm: dto.tpm });
    await this.cache.changed(name);
    res.status(created ? 201 : 200);
    return plan;
  }

  @Patch(':name')
  @Audited('plan.update', 'plan', 'name')
  async update(@Param('name') name: string, @Body() body: unknown): Promise<PlanRecord> {
    checkedName(name);
    const dto = validateBody(UpdatePlanDto, body, { rejectUnknown: true });
    auditChange(dto);
    if (dto.rpm === undefined && dto.tpm === undefined) {
      throw GatewayError.invalidRequest("Nothing to change: give 'rpm' and/or 'tpm' (a whole number, or null for unlimited)");
    }
    const plan = (await this.repository.update(name, { rpm: dto.rpm, tpm: dto.tpm })) ?? notFound(name);
    await this.cache.changed(name);
    return plan;
  }

  @Delete(':name')
  @Audited('plan.delete', 'plan', 'name')
  async remove(@Param('name') name: string): Promise<PlanRecord> {
    const removal = await this.repository.remove(checkedName(name));
    if (removal.status === 'not_found') return notFound(name);
    if (removal.status === 'in_use') {
      const revoked = removal.keys - removal.activeKeys;
      const who = `${removal.keys} key${removal.keys === 1 ? '' : 's'}${revoked > 0 ? ` (${revoked} of them revoked)` : ''}`;
      throw new GatewayError(
        'invalid_request_error',
        `Plan '${name}' is in use by ${who}; move them to another plan first (PATCH /admin/keys/{id} {"plan": "..."})`,
        { status: 409, param: 'name', code: 'plan_in_use' },
      );
    }
    await this.cache.changed(name);
    return removal.plan;
  }
}

function checkedName(name: string): string {
  if (!PLAN_NAME_PATTERN.test(name)) {
    throw GatewayError.invalidRequest(`Invalid plan name '${name}': use a lowercase slug (a-z, 0-9, - and _)`, 'name');
  }
  return name;
}

function notFound(name: string): never {
  throw new GatewayError('not_found_error', `Plan '${name}' not found; see GET /admin/plans`);
}
