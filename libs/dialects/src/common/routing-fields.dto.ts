import { IsArray, IsBoolean, IsIn, IsNumber, IsObject, IsOptional, IsString, Max, Min, ValidateIf } from 'class-validator';

const nullable = (_: object, v: unknown): boolean => v !== null && v !== undefined;

/** The interface's common routing fields, shared by every dialect's request DTO. */
export class RoutingFieldsDto {
  @ValidateIf(nullable) @IsArray() @IsString({ each: true })
  models?: string[] | null;

  @ValidateIf(nullable) @IsObject()
  provider_configs?: Record<string, unknown> | null;

  @IsOptional() @IsIn(['allow', 'deny'])
  provider_data_collection?: string;

  @ValidateIf(nullable) @IsBoolean()
  provider_enforce_distillable_text?: boolean | null;

  @ValidateIf(nullable) @IsArray() @IsString({ each: true })
  provider_ignore?: string[] | null;

  @ValidateIf(nullable) @IsArray() @IsString({ each: true })
  provider_only?: string[] | null;

  @ValidateIf(nullable) @IsArray() @IsString({ each: true })
  provider_order?: string[] | null;

  @ValidateIf(nullable) @IsArray() @IsString({ each: true })
  provider_quantizations?: string[] | null;

  @ValidateIf(nullable) @IsNumber() @Min(0)
  provider_max_completion_price?: number | null;

  @ValidateIf(nullable) @IsNumber() @Min(0)
  provider_max_image_price?: number | null;

  @ValidateIf(nullable) @IsNumber() @Min(0)
  provider_max_prompt_price?: number | null;

  @ValidateIf(nullable) @IsNumber() @Min(0)
  provider_max_request_price?: number | null;

  @IsOptional() @IsBoolean()
  provider_require_parameters?: boolean;

  @IsOptional() @IsIn(['price', 'throughput', 'latency'])
  provider_sort?: string;

  @ValidateIf(nullable) @IsBoolean()
  provider_zdr?: boolean | null;

  /** rosetta/auto's knob: 0 = cost-saving … 1 = quality-first. */
  @ValidateIf(nullable) @IsNumber() @Min(0) @Max(1)
  route_knob?: number | null;
}
