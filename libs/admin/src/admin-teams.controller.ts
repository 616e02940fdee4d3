import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { Public, TeamCacheService, TeamRepository, type TeamRecord } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { BudgetService, teamTag } from '@rosetta/limits';
import { presentGuardrails } from '@rosetta/guardrails';
import { validateBody } from '@rosetta/platform';
import { UsageReportRepository, usdString } from '@rosetta/usage';
import { budgetOf, checkInclude, monthStart } from './admin-keys.controller';
import { CreateTeamDto, UpdateTeamDto } from './admin.dto';
import { AdminGuard } from './admin.guard';
import { auditChange, Audited, AuditInterceptor } from './audit/audit.interceptor';
import { GuardrailsField } from './guardrails-field';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function presentTeam(team: TeamRecord): Record<string, unknown> {
  return {
    id: team.id,
    name: team.name,
    budget_usd: team.budget ? usdString(team.budget.usd) : null,
    budget_period: team.budget?.period ?? null,
    guardrails: presentGuardrails(team.guardrails ?? null),
    created_at: team.createdAt.toISOString(),
    updated_at: team.updatedAt.toISOString(),
  };
}

/** Teams: keys charged together, with a budget of their own (ARCHITECTURE §8). */
@Public()
@UseGuards(AdminGuard)
@UseInterceptors(AuditInterceptor)
@Controller('admin/teams')
export class AdminTeamsController {
  constructor(
    private readonly repository: TeamRepository,
    private readonly cache: TeamCacheService,
    private readonly budgets: BudgetService,
    private readonly usage: UsageReportRepository,
    private readonly guardrailsField: GuardrailsField,
  ) {}

  @Post()
  @HttpCode(201)
  @Audited('team.create', 'team')
  async create(@Body() body: unknown): Promise<Record<string, unknown>> {
    const dto = validateBody(CreateTeamDto, body);
    auditChange(dto);
    const guardrails = (await this.guardrailsField.parse(dto.guardrails)) ?? null;
    if (await this.repository.findByName(dto.name)) throw new GatewayError('invalid_request_error', `A team named '${dto.name}' exists already`, { status: 409, param: 'name' });
    const team = await this.repository.insert({ name: dto.name, budget: budgetOf(dto.budget_usd, dto.budget_period) ?? null, guardrails });
    await this.cache.changed(team.id);
    return presentTeam(team);
  }

  /** Every team; with `include=spend`, what each spent this period (its budget's, else this UTC month). */
  @Get()
  async list(@Query('include') include?: unknown): Promise<Record<string, unknown>[]> {
    const teams = await this.repository.list();
    if (!checkInclude(include)) return teams.map(presentTeam);
    const rows = await this.usage.report({ from: monthStart(), to: new Date(), groupBy: ['team'] });
    const monthly = new Map(rows.filter((row) => row.team_id).map((row) => [row.team_id!, row.cost_usd]));
    return Promise.all(teams.map((team) => (team.budget ? this.withBudget(team) : { ...presentTeam(team), spend_usd: monthly.get(team.id) ?? '0', spend_period: 'month', remaining_usd: null, resets_at: null })));
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<Record<string, unknown>> {
    const team = await this.find(id);
    if (!team.budget) return presentTeam(team);
    return this.withBudget(team);
  }

  private async withBudget(team: TeamRecord): Promise<Record<string, unknown>> {
    const status = await this.budgets.status({ kind: 'team', id: team.id, name: team.name, budget: team.budget!, tag: teamTag(team.id) });
    return { ...presentTeam(team), spend_usd: usdString(status.spentUsd), spend_period: status.period, remaining_usd: usdString(status.remainingUsd), resets_at: status.resetsAt?.toISOString() ?? null };
  }

  @Patch(':id')
  @Audited('team.update', 'team')
  async update(@Param('id') id: string, @Body() body: unknown): Promise<Record<string, unknown>> {
    const current = await this.find(id);
    const dto = validateBody(UpdateTeamDto, body);
    auditChange(dto);
    const guardrails = await this.guardrailsField.parse(dto.guardrails);
    if (dto.name !== undefined && dto.name !== current.name && (await this.repository.findByName(dto.name))) {
      throw new GatewayError('invalid_request_error', `A team named '${dto.name}' exists already`, { status: 409, param: 'name' });
    }
    const team = await this.repository.update(current.id, { name: dto.name, budget: budgetOf(dto.budget_usd, dto.budget_period, current.budget), guardrails });
    await this.cache.changed(current.id);
    return presentTeam(team!);
  }

  private async find(id: string): Promise<TeamRecord> {
    const team = UUID.test(id) ? await this.repository.findById(id) : null;
    if (!team) throw new GatewayError('not_found_error', `Team '${id}' not found`);
    return team;
  }
}
