import { Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsDateString, IsDefined, IsIn, IsNumber, IsObject, IsOptional, IsString, Length, Matches, Max, Min, ValidateBy, ValidateIf, ValidateNested,
} from 'class-validator';
import { GatewayError } from '@rosetta/canonical';
import { ColumnInt, IsStoredText } from '@rosetta/platform';
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

/** A price as a person types it: a non-negative number or decimal string of USD. */
const IsPrice = (): PropertyDecorator =>
  ValidateBy({
    name: 'isPrice',
    validator: {
      validate: (value: unknown) => (typeof value === 'number' ? Number.isFinite(value) && value >= 0 : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)),
      defaultMessage: (args) => `${args?.property} must be a price: a number of USD, such as 0.15`,
    },
  });

/**
 * An endpoint's token prices in USD per million tokens, as price pages quote them
 * (docs/decisions/0022): `{prompt: 0.15, completion: 0.6}`.
 */
export class PricesPerMillionDto {
  @IsPrice() prompt!: number | string;
  @IsPrice() completion!: number | string;
  @IsOptional() @IsPrice() input_cache_read?: number | string;
  @IsOptional() @IsPrice() input_cache_write?: number | string;
}

/**
 * An operator's prior for rosetta/auto (`router_prior`): P(acceptable answer) on a typical prompt
 * of each category, on the scale of the catalog profiles (libs/mixture/src/profiles.json);
 * `default` for every category without its own figure. A model with neither fitted data, a
 * catalog profile nor a prior is left out of rosetta/auto.
 */
export class RouterPriorDto {
  @IsNumber({}, { message: 'router_prior.default must be a number from 0 to 1' }) @Min(0) @Max(1) default!: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) writing?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) roleplay?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) reasoning?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) math?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) coding?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) extraction?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) stem?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) humanities?: number;
}

/** The keys a router prior may have: `default` and the router's prompt categories. */
export const ROUTER_PRIOR_KEYS = ['default', 'writing', 'roleplay', 'reasoning', 'math', 'coding', 'extraction', 'stem', 'humanities'] as const;

/** The figures of a validated prior; a key that is not a category is refused, naming it. */
export function routerPriorQuality(prior: RouterPriorDto, param = 'router_prior'): { default: number } & Record<string, number> {
  const quality: Record<string, number> = {};
  for (const [key, value] of Object.entries(prior)) {
    if (value === undefined) continue;
    if (!(ROUTER_PRIOR_KEYS as readonly string[]).includes(key)) {
      throw GatewayError.invalidRequest(`${param}.${key} is not a category; use default or one of ${ROUTER_PRIOR_KEYS.slice(1).join(', ')}`, `${param}.${key}`);
    }
    quality[key] = value as number;
  }
  return quality as { default: number } & Record<string, number>;
}

/** `router_prior`: an object sets the model's prior, `null` clears it, absent leaves it as it is. */
const RouterPriorField = (): PropertyDecorator => (target, key) => {
  ValidateIf((_, value) => value !== undefined && value !== null)(target, key);
  IsObject({ message: 'router_prior must be an object such as {"default": 0.7, "coding": 0.8}, or null' })(target, key);
  ValidateNested()(target, key);
  Type(() => RouterPriorDto)(target, key);
};

const KINDS = ['chat', 'embedding'];

/**
 * One endpoint: a provider serving a model (ARCHITECTURE §5). An embedding model's endpoint
 * (`kind: embedding`, or an endpoint of a model that already is one) gives its input limit as
 * `context_length`, its vector size as `dimensions`, and `custom_dimensions: true` when the upstream
 * takes a smaller size; it has no `max_completion_tokens`, which every chat endpoint needs.
 */
export class EndpointEntryDto {
  /** The public id (`rosetta/gpt-4o-mini`) or the bare name. */
  @IsStoredText() @IsString() model!: string;
  @IsStoredText() @IsString() @Length(1, 200) upstream_model!: string;
  @IsOptional() @IsIn(KINDS, { message: 'kind must be chat or embedding' }) kind?: 'chat' | 'embedding';
  @IsOptional() @IsIn(['int4', 'int8', 'fp4', 'fp6', 'fp8', 'fp16', 'bf16', 'fp32', 'unknown']) quantization?: string;
  @ColumnInt('integer', 1) context_length!: number;
  @IsOptional() @ColumnInt('integer', 1) max_completion_tokens?: number;
  @IsOptional() @ColumnInt('integer', 1) dimensions?: number;
  @IsOptional() @IsBoolean() custom_dimensions?: boolean;
  /** Prices as people write them: USD per million tokens (and per image, per request). */
  @IsOptional() @ValidateNested() @Type(() => PricesPerMillionDto) usd_per_million_tokens?: PricesPerMillionDto;
  @IsOptional() @IsPrice() usd_per_image?: number | string;
  @IsOptional() @IsPrice() usd_per_request?: number | string;
  /** USD per token (the catalog's and the model record's unit; older files): one of the two is required. */
  @IsOptional() @ValidateNested() @Type(() => PricingDto) pricing?: PricingDto;
  @IsOptional() @IsBoolean() tools?: boolean;
  @IsOptional() @IsBoolean() vision?: boolean;
  @IsOptional() @IsBoolean() reasoning?: boolean;
  @IsOptional() @IsBoolean() disabled?: boolean;
  /** The model's prior for rosetta/auto (it applies to the model, whichever endpoint declares it). */
  @RouterPriorField() router_prior?: RouterPriorDto | null;
}

/** One provider entry of PROVIDERS_FILE, the catalog, or PUT /admin/providers/{slug}. */
export class ProviderEntryDto {
  @Matches(/^[a-z0-9][a-z0-9_-]{0,62}$/, { message: 'slug must be a lowercase slug' }) slug!: string;
  @IsIn(UPSTREAM_PROTOCOL_IDS) protocol!: string;
  @IsOptional() @IsStoredText() @Matches(/^https?:\/\/\S+$/, { message: 'base_url must be an http(s) URL' }) base_url?: string;
  @IsOptional() @Matches(/^[A-Z_][A-Z0-9_]*$/, { message: 'api_key_env must be an environment variable name' }) api_key_env?: string;
  @IsOptional() @IsStoredText() @IsString() api_key?: string;
  @IsOptional() @IsIn(['allow', 'deny']) data_collection?: string;
  @IsOptional() @IsBoolean() zdr?: boolean;
  @IsOptional() @IsBoolean() disabled?: boolean;
  @IsOptional() @IsBoolean() builtin?: boolean;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => EndpointEntryDto) endpoints?: EndpointEntryDto[];
  /** Reached through a cloud platform (ARCHITECTURE §9). */
  @IsOptional() @IsIn(['azure', 'bedrock', 'vertex'], { message: 'platform must be azure, bedrock or vertex' }) platform?: string;
  /** Azure: the API version of the deployment paths; absent, Azure's v1 API. */
  @IsOptional() @Matches(/^(\d{4}-\d{2}-\d{2}(-preview)?|preview|latest)$/, { message: 'api_version must be an Azure API version such as 2024-10-21 or 2025-04-01-preview' }) api_version?: string;
  /** Azure: `api-key` (the default) or `azure-ad` (an Entra ID token from the default credential chain). */
  @IsOptional() @IsIn(['api-key', 'azure-ad'], { message: 'auth must be api-key or azure-ad' }) auth?: string;
  /** Vertex AI: the Google Cloud project and location (a region, or `global`). */
  @IsOptional() @Matches(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, { message: 'project must be a Google Cloud project id' }) project?: string;
  @IsOptional() @Matches(/^(global|[a-z]+-[a-z]+\d+)$/, { message: 'location must be a Google Cloud region such as us-east5, or global' }) location?: string;
  /** Bedrock: the AWS region (us-east-1, eu-central-1, …). */
  @IsOptional() @Matches(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, { message: 'region must be an AWS region such as us-east-1 or eu-central-1' }) region?: string;
}

export class ProvidersFileDto {
  @IsDefined() @IsArray() @ValidateNested({ each: true }) @Type(() => ProviderEntryDto) providers!: ProviderEntryDto[];
}

export class ModelEntryDto {
  @IsStoredText() @IsString() name!: string;
  @IsStoredText() @IsString() @Length(1, 200) display_name!: string;
  @IsStoredText() @IsString() @Length(1, 200) author!: string;
  @IsOptional() @IsStoredText() @IsString() @Length(0, 10_000) description?: string;
  @IsOptional() @IsDateString({ strict: true }, { message: 'created_at must be an ISO 8601 date-time' }) created_at?: string;
  @IsOptional() @IsBoolean() distillable?: boolean;
  @RouterPriorField() router_prior?: RouterPriorDto | null;
  /** `chat` (the default for a new model) or `embedding`; absent on an existing model: unchanged. */
  @IsOptional() @IsIn(KINDS, { message: 'kind must be chat or embedding' }) kind?: 'chat' | 'embedding';
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => EndpointEntryDto) endpoints?: EndpointEntryDto[];
}
