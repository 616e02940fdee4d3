import { IsDateString, IsInt, IsNumber, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { PLAN_NAME_PATTERN } from '@rosetta/limits';

const MAX_LIMIT = 2_000_000_000;

export class CreateKeyDto {
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsString()
  @Matches(PLAN_NAME_PATTERN, { message: 'plan must be a lowercase plan slug' })
  plan!: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_LIMIT)
  rpm?: number | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_LIMIT)
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
}

export class UpsertPlanDto {
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_LIMIT)
  rpm!: number | null;

  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_LIMIT)
  tpm!: number | null;
}
