import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDateString, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, IsUUID, Length, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { MAX_CACHE_TTL_S, PROMPT_CACHE_MODES, RESPONSE_CACHE_MODES } from '@rosetta/cache';
import { PLAN_NAME_PATTERN } from '@rosetta/limits';
import { IsStoredText } from '@rosetta/platform';

const MAX_LIMIT = 2_000_000_000;
/** Budgets are counted in nano-dollars, exact up to ~$9M; a billion dollars is beyond any budget. */
const MAX_BUDGET_USD = 1_000_000;
const BUDGET_PERIOD_VALUES = ['day', 'month', 'total'];

/**
 * A per-minute limit: a whole number up to MAX_LIMIT, or null for unlimited. The checks are
 * applied in the order stacked decorators would be (bottom first), so messages stay the same.
 */
const Limit = (): PropertyDecorator => applyDecorators(Max(MAX_LIMIT), Min(0), IsInt(), ValidateIf((_, v) => v !== null));

/** `cache` on a plan or key (ARCHITECTURE §9): the response cache's mode, TTL and similarity. */
export class CacheSettingsDto {
  @IsIn(RESPONSE_CACHE_MODES, { message: `mode must be one of ${RESPONSE_CACHE_MODES.join(', ')}` })
  mode!: string;

  @IsOptional()
  @Max(MAX_CACHE_TTL_S)
  @Min(1)
  @IsInt({ message: 'ttl_s must be a whole number of seconds' })
  ttl_s?: number;

  @IsOptional()
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'similarity must be a number from 0 to 1' })
  similarity?: number;
}

/** Optional `cache` and `prompt_cache`: null clears them (the key follows its plan; a plan is off). */
const CacheField = (): PropertyDecorator =>
  applyDecorators(Type(() => CacheSettingsDto), ValidateNested(), IsObject({ message: 'cache must be an object like {"mode": "exact", "ttl_s": 3600}' }), ValidateIf((_, v) => v !== null), IsOptional());
const PromptCacheField = (): PropertyDecorator =>
  applyDecorators(IsIn(PROMPT_CACHE_MODES, { message: `prompt_cache must be one of ${PROMPT_CACHE_MODES.join(', ')} (or null)` }), ValidateIf((_, v) => v !== null), IsOptional());

export class CreateKeyDto {
  @IsStoredText()
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsString()
  @Matches(PLAN_NAME_PATTERN, { message: 'plan must be a lowercase plan slug' })
  plan!: string;

  @IsOptional()
  @Limit()
  rpm?: number | null;

  @IsOptional()
  @Limit()
  tpm?: number | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsNumber()
  @Min(0)
  @Max(1)
  route_knob?: number | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsDateString({ strict: true }, { message: 'expires_at must be an ISO 8601 date-time' })
  expires_at?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID('all', { message: 'team_id must be a team id (see GET /admin/teams)' })
  team_id?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'budget_usd must be a number of US dollars' })
  @Min(0)
  @Max(MAX_BUDGET_USD)
  budget_usd?: number | null;

  /** Each end user's budget, over the key's budget_period (decision 0033). */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'end_user_budget_usd must be a number of US dollars' })
  @Min(0)
  @Max(MAX_BUDGET_USD)
  end_user_budget_usd?: number | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(BUDGET_PERIOD_VALUES, { message: 'budget_period must be one of day, month, total' })
  budget_period?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsArray()
  @ArrayMaxSize(500)
  @IsStoredText({ each: true })
  @IsString({ each: true, message: 'models must be a list of model ids' })
  models?: string[] | null;
  @CacheField()
  cache?: CacheSettingsDto | null;

  @PromptCacheField()
  prompt_cache?: string | null;

  /** Guardrail checks (ARCHITECTURE §9): validated by guardrailsOf, which names the field's path. */
  @IsOptional()
  guardrails?: unknown;
}

/** PATCH /admin/keys/{id}: any field of a key but its secret; null clears what can be cleared. */
export class UpdateKeyDto extends CreateKeyDto {
  @IsOptional()
  @IsStoredText()
  @IsString()
  @Length(1, 200)
  declare name: string;

  @IsOptional()
  @IsString()
  @Matches(PLAN_NAME_PATTERN, { message: 'plan must be a lowercase plan slug' })
  declare plan: string;
}

export class CreateTeamDto {
  @IsStoredText()
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'budget_usd must be a number of US dollars' })
  @Min(0)
  @Max(MAX_BUDGET_USD)
  budget_usd?: number | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(BUDGET_PERIOD_VALUES, { message: 'budget_period must be one of day, month, total' })
  budget_period?: string | null;

  /** Guardrail checks (ARCHITECTURE §9): validated by guardrailsOf, which names the field's path. */
  @IsOptional()
  guardrails?: unknown;
}

export class UpdateTeamDto extends CreateTeamDto {
  @IsOptional()
  @IsStoredText()
  @IsString()
  @Length(1, 200)
  declare name: string;
}

/** PUT /admin/plans/{name}: the whole plan; both limits are required, null meaning unlimited; caching left out is off. */
export class UpsertPlanDto {
  @Limit()
  rpm!: number | null;

  @Limit()
  tpm!: number | null;

  @CacheField()
  cache?: CacheSettingsDto | null;

  @PromptCacheField()
  prompt_cache?: string | null;

  /** Guardrail checks (ARCHITECTURE §9): validated by guardrailsOf, which names the field's path. */
  @IsOptional()
  guardrails?: unknown;
}

/** PATCH /admin/plans/{name}: only the limits given change; null means unlimited. */
export class UpdatePlanDto {
  @IsOptional()
  @Limit()
  rpm?: number | null;

  @IsOptional()
  @Limit()
  tpm?: number | null;

  @CacheField()
  cache?: CacheSettingsDto | null;

  @PromptCacheField()
  prompt_cache?: string | null;

  /** Guardrail checks (ARCHITECTURE §9): validated by guardrailsOf, which names the field's path. */
  @IsOptional()
  guardrails?: unknown;
}
