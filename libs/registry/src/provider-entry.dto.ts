import { Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Min, ValidateNested,
} from 'class-validator';
import { UPSTREAM_PROTOCOL_IDS } from '@rosetta/protocols/upstreams';

const PRICE = /^\d+(\.\d+)?(e-?\d+)?$/i;

export class PricingDto {
  @Matches(PRICE, { message: 'prompt must be a USD-per-token decimal string' }) prompt!: string;
  @Matches(PRICE, { message: 'completion must be a USD-per-token decimal string' }) completion!: string;
  @IsOptional() @Matches(PRICE) image?: string;
  @IsOptional() @Matches(PRICE) request?: string;
  @IsOptional() @Matches(PRICE) input_cache_read?: string;
  @IsOptional() @Matches(PRICE) input_cache_write?: string;
}

const KINDS = ['chat', 'embedding'];

/**
 * One endpoint: a provider serving a model (ARCHITECTURE §5). An embedding model's endpoint
 * (`kind: embedding`, or an endpoint of a model that already is one) gives its input limit as
 * `context_length`, its vector size as `dimensions`, and `custom_dimensions: true` when the upstream
 * takes a smaller size; it has no `max_completion_tokens`, which every chat endpoint needs.
 */
export class EndpointEntryDto {
  /** The public id (`rosetta/gpt-4o-mini`) or the bare name. */
  @IsString() model!: string;
  @IsString() upstream_model!: string;
  @IsOptional() @IsIn(KINDS, { message: 'kind must be chat or embedding' }) kind?: 'chat' | 'embedding';
  @IsOptional() @IsIn(['int4', 'int8', 'fp4', 'fp6', 'fp8', 'fp16', 'bf16', 'fp32', 'unknown']) quantization?: string;
  @IsInt() @Min(1) context_length!: number;
  @IsOptional() @IsInt() @Min(1) max_completion_tokens?: number;
  @IsOptional() @IsInt() @Min(1) dimensions?: number;
  @IsOptional() @IsBoolean() custom_dimensions?: boolean;
  @IsDefined() @ValidateNested() @Type(() => PricingDto) pricing!: PricingDto;
  @IsOptional() @IsBoolean() tools?: boolean;
  @IsOptional() @IsBoolean() vision?: boolean;
  @IsOptional() @IsBoolean() reasoning?: boolean;
  @IsOptional() @IsBoolean() disabled?: boolean;
}

/** One provider entry of PROVIDERS_FILE, the catalog, or PUT /admin/providers/{slug}. */
export class ProviderEntryDto {
  @Matches(/^[a-z0-9][a-z0-9_-]{0,62}$/, { message: 'slug must be a lowercase slug' }) slug!: string;
  @IsIn(UPSTREAM_PROTOCOL_IDS) protocol!: string;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'base_url must be an http(s) URL' }) base_url?: string;
  @IsOptional() @Matches(/^[A-Z_][A-Z0-9_]*$/, { message: 'api_key_env must be an environment variable name' }) api_key_env?: string;
  @IsOptional() @IsString() api_key?: string;
  @IsOptional() @IsIn(['allow', 'deny']) data_collection?: string;
  @IsOptional() @IsBoolean() zdr?: boolean;
  @IsOptional() @IsBoolean() disabled?: boolean;
  @IsOptional() @IsBoolean() builtin?: boolean;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => EndpointEntryDto) endpoints?: EndpointEntryDto[];
}

export class ProvidersFileDto {
  @IsDefined() @IsArray() @ValidateNested({ each: true }) @Type(() => ProviderEntryDto) providers!: ProviderEntryDto[];
}

export class ModelEntryDto {
  @IsString() name!: string;
  @IsString() display_name!: string;
  @IsString() author!: string;
  @IsOptional() @IsString() description?: string;
  @IsOptional() @IsString() created_at?: string;
  @IsOptional() @IsBoolean() distillable?: boolean;
  /** `chat` (the default for a new model) or `embedding`; absent on an existing model: unchanged. */
  @IsOptional() @IsIn(KINDS, { message: 'kind must be chat or embedding' }) kind?: 'chat' | 'embedding';
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => EndpointEntryDto) endpoints?: EndpointEntryDto[];
}
