import { Body, Controller, Delete, Get, Param, Patch, Put, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { cacheSettingsOf, presentCacheSettings, SemanticIndexService, type PromptCacheMode } from '@rosetta/cache';
import { GatewayError } from '@rosetta/canonical';
import { PLAN_NAME_PATTERN, PlanCacheService, PlanRepository, type PlanRecord } from '@rosetta/limits';
import { presentGuardrails } from '@rosetta/guardrails';
import { validateBody } from '@rosetta/platform';
import { UpdatePlanDto, UpsertPlanDto } from './admin.dto';
import { AdminGuard } from './admin.guard';
import { auditChange, Audited, AuditInterceptor } from './audit/audit.interceptor';
import { GuardrailsField } from './guardrails-field';

interface StatusSetter {
  status(code: number): unknown;
}

/** A plan as the admin API shows it: its limits, its caching (`cache`, `prompt_cache`) and its `guardrails`. */
export function presentPlan(plan: PlanRecord): Record<string, unknown> {
  return { name: plan.name, rpm: plan.rpm, tpm: plan.tpm, cache: presentCacheSettings(plan.cache), prompt_cache: plan.promptCache, guardrails: presentGuardrails(plan.guardrails ?? null) };
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
    private readonly semantic: SemanticIndexService,
    private readonly guardrailsField: GuardrailsField,
  ) {}

  @Get()
  async list(): Promise<Record<string, unknown>[]> {
    return (await this.repository.list()).map(presentPlan);
  }

  @Get(':name')
  async get(@Param('name') name: string): Promise<Record<string, unknown>> {
    return presentPlan((await this.repository.find(checkedName(name))) ?? notFound(name));
  }

  @Put(':name')
  @Audited('plan.put', 'plan', 'name')
  async upsert(
    @Param('name') name: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: StatusSetter,
  ): Promise<Record<string, unknown>> {
    checkedName(name);
    const dto = validateBody(UpsertPlanDto, body, { rejectUnknown: true });
    this.semantic.check(dto.cache);
    auditChange(dto);
    const caching = { cache: cacheSettingsOf(dto.cache) ?? null, promptCache: (dto.prompt_cache ?? null) as PromptCacheMode | null };
    const guardrails = (await this.guardrailsField.parse(dto.guardrails)) ?? null;
    const { plan, created } = await this.repository.upsert({ name, rpm: dto.rpm, tpm: dto.tpm, ...caching, guardrails });
    await this.cache.changed(name);
    res.status(created ? 201 : 200);
    return presentPlan(plan);
  }

  @Patch(':name')
  @Audited('plan.update', 'plan', 'name')
  async update(@Param('name') name: string, @Body() body: unknown): Promise<Record<string, unknown>> {
    checkedName(name);
    const dto = validateBody(UpdatePlanDto, body, { rejectUnknown: true });
    this.semantic.check(dto.cache);
    auditChange(dto);
    const guardrails = await this.guardrailsField.parse(dto.guardrails);
    if (dto.rpm === undefined && dto.tpm === undefined && dto.cache === undefined && dto.prompt_cache === undefined && guardrails === undefined) {
      throw GatewayError.invalidRequest("Nothing to change: give 'rpm' and/or 'tpm' (a whole number, or null for unlimited), 'cache', 'prompt_cache' or 'guardrails'");
    }
    const change = { rpm: dto.rpm, tpm: dto.tpm, cache: cacheSettingsOf(dto.cache), promptCache: dto.prompt_cache as PromptCacheMode | null | undefined, guardrails };
    const plan = (await this.repository.update(name, change)) ?? notFound(name);
    await this.cache.changed(name);
    return presentPlan(plan);
  }

  @Delete(':name')
  @Audited('plan.delete', 'plan', 'name')
  async remove(@Param('name') name: string): Promise<Record<string, unknown>> {
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
    return presentPlan(removal.plan);
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
