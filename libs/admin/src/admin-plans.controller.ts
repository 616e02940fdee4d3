import { Body, Controller, Get, Param, Put, Res, UseGuards } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { PLAN_NAME_PATTERN, PlanCacheService, PlanRepository, type PlanRecord } from '@rosetta/limits';
import { validateBody } from '@rosetta/platform';
import { UpsertPlanDto } from './admin.dto';
import { AdminGuard } from './admin.guard';

interface StatusSetter {
  status(code: number): unknown;
}

@Public()
@UseGuards(AdminGuard)
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

  @Put(':name')
  async upsert(
    @Param('name') name: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: StatusSetter,
  ): Promise<PlanRecord> {
    if (!PLAN_NAME_PATTERN.test(name)) {
      throw GatewayError.invalidRequest(`Invalid plan name '${name}': use a lowercase slug (a-z, 0-9, - and _)`, 'name');
    }
    const dto = validateBody(UpsertPlanDto, body);
    const { plan, created } = await this.repository.upsert({ name, rpm: dto.rpm ?? null, tpm: dto.tpm ?? null });
    await this.cache.changed(name);
    res.status(created ? 201 : 200);
    return plan;
  }
}
