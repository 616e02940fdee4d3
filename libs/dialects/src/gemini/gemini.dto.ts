import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { RoutingFieldsDto } from '../common/routing-fields.dto';
import { isPlainObject, Satisfies } from '../common/validators';

const isParts = (v: unknown): boolean => Array.isArray(v) && v.every(isPlainObject);

export class GeminiContentDto {
  @IsOptional() @IsIn(['user', 'model', 'function'], { message: "role must be 'user' or 'model'" }) role?: string;
  @IsDefined() @Satisfies(isParts, 'parts must be an array of part objects') parts!: unknown[];
}

export class GeminiGenerationConfigDto {
  @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) topP?: number;
  @IsOptional() @IsNumber() @Min(0) topK?: number;
  @IsOptional() @IsInt() @Min(1) maxOutputTokens?: number;
  @IsOptional() @IsInt() @Min(1) candidateCount?: number;
  @IsOptional() @IsArray() @IsString({ each: true }) stopSequences?: string[];
  @IsOptional() @IsString() responseMimeType?: string;
  @IsOptional() @IsObject() thinkingConfig?: Record<string, unknown>;
}

/** Dialect C request, after snake_case members were normalised to camelCase. */
export class GeminiGenerateContentDto extends RoutingFieldsDto {
  @IsDefined() @IsArray() @ValidateNested({ each: true }) @Type(() => GeminiContentDto)
  contents!: GeminiContentDto[];

  @IsOptional() @ValidateNested() @Type(() => GeminiContentDto) systemInstruction?: GeminiContentDto;
  @IsOptional() @ValidateNested() @Type(() => GeminiGenerationConfigDto) generationConfig?: GeminiGenerationConfigDto;
  @IsOptional() @IsArray() tools?: unknown[];
  @IsOptional() @IsObject() toolConfig?: Record<string, unknown>;
  @IsOptional() @IsArray() safetySettings?: unknown[];
}
