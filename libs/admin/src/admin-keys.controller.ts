import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiKeyService, Public, TeamCacheService, type ApiKeyRecord, type Budget, type BudgetPeriod, type KeyChange } from '@rosetta/auth';
import { cacheSettingsOf, presentCacheSettings, SemanticIndexService, type PromptCacheMode } from '@rosetta/cache';
import { GatewayError } from '@rosetta/canonical';
import { BudgetService, PlanCacheService } from '@rosetta/limits';
import { presentGuardrails } from '@rosetta/guardrails';
import { validateBody } from '@rosetta/platform';
import { RegistryService } from '@rosetta/registry';
import { UsageReportRepository, UsageRepository, usdString } from '@rosetta/usage';
import { CreateKeyDto, UpdateKeyDto } from './admin.dto';
import { AdminGuard } from './admin.guard';
import { keyBudgetsOf } from './key-budgets';
import { auditChange, Audited, AuditInterceptor } from './audit/audit.interceptor';
import { GuardrailsField } from './guardrails-field';

export function presentKey(record: ApiKeyRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    plan: record.plan,
    prefix: `rsk_${record.lookupId}`,
    team_id: record.teamId,
    rpm: record.rpm,
    tpm: record.tpm,
    budget_usd: record.budget ? usdString(record.budget.usd) : null,
    end_user_budget_usd: record.endUserBudget ? usdString(record.endUserBudget.usd) : null,
    budget_period: record.budget?.period ?? record.endUserBudget?.period ?? null,
    models: record.models,
    route_knob: record.routeKnob,
    cache: presentCacheSettings(record.cache),
    prompt_cache: record.promptCache,
    guardrails: presentGuardrails(record.guardrails ?? null),
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt?.toISOString() ?? null,
    revoked_at: record.revokedAt?.toISOString() ?? null,
    last_used_at: record.lastUsedAt?.toISOString() ?? null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `budget_usd` and `budget_period` go together: both set a budget, both null remove it. */
export function budgetOf(usd: number | null | undefined, period: string | null | undefined, current: Budget | null = null): Budget | null | undefined {
  if (usd === undefined && period === undefined) return undefined;
  if (usd === null && (period === null || period === undefined)) return null;
  const amount = usd ?? current?.usd;
  const every = (period ?? current?.period) as BudgetPeriod | undefined;
  if (amount === undefined || amount === null) throw GatewayError.invalidRequest('budget_period needs a budget_usd', 'budget_usd');
  if (!every) throw GatewayError.invalidRequest("budget_usd needs a budget_period: 'day', 'month' (UTC) or 'total'", 'budget_period');
  return { usd: amount, period: every };
}

/** Keys: issue (the secret is shown once), read with this period's spend, change, revoke (ARCHITECTURE §8). */
@Public()
@UseGuards(AdminGuard)
@UseInterceptors(AuditInterceptor)
@Controller('admin/keys')
export class AdminKeysController {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly plans: PlanCacheService,
    private readonly teams: TeamCacheService,
    private readonly registry: RegistryService,
    private readonly budgets: BudgetService,
    private readonly usage: UsageRepository,
    private readonly reports: UsageReportRepository,
    private readonly semantic: SemanticIndexService,
    private readonly guardrailsField: GuardrailsField,
  ) {}

  @Post()
  @HttpCode(201)
  @Audited('key.create', 'key')
  async create(@Body() body: unknown): Promise<Record<string, unknown>> {
    const dto = validateBody(CreateKeyDto, body);
    auditChange(dto);
    const change = await this.checked(dto);
    const { record, key } = await this.keys.create({
      name: dto.name,
      plan: dto.plan,
      rpm: dto.rpm,
      tpm: dto.tpm,
      routeKnob: dto.route_knob,
      expiresAt: change.expiresAt,
      teamId: change.teamId,
      budget: change.budget,
      endUserBudget: change.endUserBudget,
      models: change.models,
      cache: change.cache,
      promptCache: change.promptCache,
      guardrails: change.guardrails,
    });
    return { ...presentKey(record), key };
  }

  /** Every key; with `include=spend`, what each spent this period (the dashboard's list). */
  @Get()
  async list(@Query('include') include?: unknown): Promise<Record<string, unknown>[]> {
    const keys = await this.keys.list();
    if (!checkInclude(include)) return keys.map(presentKey);
    const monthly = await this.monthlySpend();
    return Promise.all(keys.map(async (record) => ({ ...presentKey(record), ...(await this.spend(record, monthly)) })));
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<Record<string, unknown>> {
    const record = await this.find(id);
    return { ...presentKey(record), ...(await this.spend(record)) };
  }

  @Patch(':id')
  @Audited('key.update', 'key')
  async update(@Param('id') id: string, @Body() body: unknown): Promise<Record<string, unknown>> {
    const current = await this.find(id);
    const dto = validateBody(UpdateKeyDto, body);
    auditChange(dto);
    const change = await this.checked(dto, current);
    const record = await this.keys.update(current.id, change);
    return presentKey(record!);
  }

  @Delete(':id')
  @Audited('key.revoke', 'key')
  async revoke(@Param('id') id: string): Promise<Record<string, unknown>> {
    const record = UUID.test(id) ? await this.keys.revoke(id) : null;
    if (!record) throw new GatewayError('not_found_error', `API key '${id}' not found`);
    return presentKey(record);
  }

  private async find(id: string): Promise<ApiKeyRecord> {
    const record = UUID.test(id) ? await this.keys.get(id) : null;
    if (!record) throw new GatewayError('not_found_error', `API key '${id}' not found`);
    return record;
  }

  /** Checks what refers to other records (plan, team, models) and turns the DTO into a change. */
  private async checked(dto: Partial<CreateKeyDto>, current?: ApiKeyRecord): Promise<KeyChange> {
    this.semantic.check(dto.cache);
    if (dto.plan !== undefined && !(await this.plans.current(dto.plan))) throw GatewayError.invalidRequest(`Unknown plan '${dto.plan}'; see GET /admin/plans`, 'plan');
    if (dto.team_id && !(await this.teams.current(dto.team_id))) throw GatewayError.invalidRequest(`Unknown team '${dto.team_id}'; see GET /admin/teams`, 'team_id');
    let expiresAt: Date | null | undefined;
    if (dto.expires_at !== undefined) {
      expiresAt = dto.expires_at === null ? null : new Date(dto.expires_at);
      if (expiresAt && expiresAt.getTime() <= Date.now()) throw GatewayError.invalidRequest(`expires_at must be in the future, got ${dto.expires_at}`, 'expires_at');
    }
    const models = dto.models === undefined || dto.models === null ? dto.models : dto.models.map((id, i) => this.registry.resolve(id, `models[${i}]`).id);
    return {
      name: dto.name,
      plan: dto.plan,
      rpm: dto.rpm,
      tpm: dto.tpm,
      routeKnob: dto.route_knob,
      expiresAt,
      teamId: dto.team_id,
      ...keyBudgetsOf(dto, current),
      models: models ? [...new Set(models)] : models,
      cache: cacheSettingsOf(dto.cache),
      promptCache: dto.prompt_cache as PromptCacheMode | null | undefined,
      guardrails: await this.guardrailsField.parse(dto.guardrails),
    };
  }

  /** This UTC month's spend of every key, in one grouped read of the ledger. */
  private async monthlySpend(): Promise<Map<string, string>> {
    const rows = await this.reports.report({ from: monthStart(), to: new Date(), groupBy: ['key'] });
    return new Map(rows.filter((row) => row.api_key_id).map((row) => [row.api_key_id!, row.cost_usd]));
  }

  /** Spend this period: the budget's own figures, or the ledger's this UTC month without a budget. */
  private async spend(record: ApiKeyRecord, monthly?: Map<string, string>): Promise<Record<string, unknown>> {
    const scope = this.budgets.scopesFor(record).find((s) => s.kind === 'key');
    if (scope) {
      const status = await this.budgets.status(scope);
      return { spend_usd: usdString(status.spentUsd), spend_period: status.period, remaining_usd: usdString(status.remainingUsd), resets_at: status.resetsAt?.toISOString() ?? null };
    }
    const spent = monthly ? (monthly.get(record.id) ?? '0') : usdString(await this.usage.spentSince('key', record.id, monthStart()));
    return { spend_usd: spent, spend_period: 'month', remaining_usd: null, resets_at: null };
  }
}

export function monthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** `include=spend` or nothing: a list with or without what each object spent this period. */
export function checkInclude(include: unknown): boolean {
  if (include === undefined) return false;
  if (include !== 'spend') throw GatewayError.invalidRequest(`Invalid 'include': the only value is 'spend', got ${JSON.stringify(include).slice(0, 100)}`, 'include');
  return true;
}
