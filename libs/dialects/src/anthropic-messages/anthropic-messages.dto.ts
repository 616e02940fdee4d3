import { Type } from 'class-transformer';
import {
  ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, Min,
  ValidateIf, ValidateNested,
} from 'class-validator';
import { RoutingFieldsDto } from '../common/routing-fields.dto';
import { isPlainObject, Satisfies } from '../common/validators';

const isBlocks = (v: unknown): boolean => Array.isArray(v) && v.every((b) => isPlainObject(b) && typeof b['type'] === 'string');
const isContent = (v: unknown): boolean => typeof v === 'string' || isBlocks(v);

export class AnthropicMessageDto {
  // `system` inside the conversation: Anthropic's mid-conversation-system beta, which Claude Code uses.
  @IsIn(['user', 'assistant', 'system'], { message: "role must be 'user', 'assistant' or 'system'" })
  role!: string;

  @Satisfies(isContent, 'content must be a string or an array of content blocks, each with a type')
  content!: unknown;
}

export class AnthropicThinkingDto {
  @IsIn(['enabled', 'disabled', 'adaptive']) type!: string;
  @ValidateIf((t: AnthropicThinkingDto) => t.type === 'enabled') @IsInt() @Min(1024) budget_tokens?: number;
}

export class AnthropicToolChoiceDto {
  @IsIn(['auto', 'any', 'tool', 'none']) type!: string;
  @ValidateIf((t: AnthropicToolChoiceDto) => t.type === 'tool') @IsString() name?: string;
  @IsOptional() @IsBoolean() disable_parallel_tool_use?: boolean;
}

export class AnthropicToolDto {
  @IsString() name!: string;
  @IsOptional() @IsString() type?: string;
  @ValidateIf((t: AnthropicToolDto) => t.type === undefined || t.type === 'custom') @IsObject() input_schema?: Record<string, unknown>;
}

/** The body shared by /v1/messages and /v1/messages/count_tokens. */
export class AnthropicCountTokensDto extends RoutingFieldsDto {
  @IsDefined() @IsString() model!: string;

  @IsDefined() @IsArray() @ArrayMinSize(1) @ValidateNested({ each: true }) @Type(() => AnthropicMessageDto)
  messages!: AnthropicMessageDto[];

  @ValidateIf((_, v) => v !== undefined) @Satisfies(isContent, 'system must be a string or an array of text blocks')
  system?: unknown;

  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => AnthropicToolDto)
  tools?: AnthropicToolDto[];

  @IsOptional() @ValidateNested() @Type(() => AnthropicToolChoiceDto)
  tool_choice?: AnthropicToolChoiceDto;

  @IsOptional() @ValidateNested() @Type(() => AnthropicThinkingDto)
  thinking?: AnthropicThinkingDto;
}

/** Dialect B request: documented fields checked; unknown fields pass through untouched. */
export class AnthropicMessagesRequestDto extends AnthropicCountTokensDto {
  @IsDefined() @IsInt() @Min(1) max_tokens!: number;
  @IsOptional() @IsBoolean() stream?: boolean;
  @IsOptional() @IsNumber() @Min(0) @Max(1) temperature?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) top_p?: number;
  @IsOptional() @IsInt() @Min(0) top_k?: number;
  @IsOptional() @IsArray() @IsString({ each: true }) stop_sequences?: string[];
  @IsOptional() @IsObject() metadata?: Record<string, unknown>;
  @IsOptional() @IsString() service_tier?: string;
}
