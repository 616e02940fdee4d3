import { Type } from 'class-transformer';
import {
  ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Matches, Max, Min,
  ValidateIf, ValidateNested,
} from 'class-validator';
import { RoutingFieldsDto } from '../common/routing-fields.dto';
import { isPlainObject, isStringOrStringArray, Satisfies } from '../common/validators';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const PART_TYPES = ['text', 'image_url', 'input_audio', 'file', 'refusal'];

const isContent = (value: unknown, message: object): boolean => {
  if (typeof value === 'string') return true;
  if (value === null || value === undefined) {
    const m = message as { role?: string; tool_calls?: unknown };
    return m.role === 'assistant';
  }
  return Array.isArray(value) && value.every((p) => isPlainObject(p) && typeof p['type'] === 'string' && PART_TYPES.includes(p['type']));
};

export class OpenAIFunctionCallDto {
  @IsString() name!: string;
  @IsString() arguments!: string;
}

export class OpenAIToolCallDto {
  @IsString() id!: string;
  @IsIn(['function']) type!: string;
  @IsDefined() @ValidateNested() @Type(() => OpenAIFunctionCallDto) function!: OpenAIFunctionCallDto;
}

export class OpenAIMessageDto {
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role!: string;

  @Satisfies(isContent, `content must be a string or an array of content parts (${PART_TYPES.join(', ')}); null only for assistant messages`)
  content?: unknown;

  @IsOptional() @IsString()
  name?: string;

  @ValidateIf((m: OpenAIMessageDto) => m.role === 'tool') @IsString({ message: 'tool_call_id is required on tool messages' })
  tool_call_id?: string;

  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => OpenAIToolCallDto)
  tool_calls?: OpenAIToolCallDto[];
}

export class OpenAIFunctionDto {
  @Matches(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'name must be 1-64 characters of a-z, A-Z, 0-9, _ and -' })
  name!: string;
  @IsOptional() @IsString() description?: string;
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
  @IsOptional() @IsBoolean() strict?: boolean;
}

export class OpenAIToolDto {
  @IsIn(['function', 'custom']) type!: string;
  @ValidateIf((t: OpenAIToolDto) => t.type === 'function') @IsDefined() @ValidateNested() @Type(() => OpenAIFunctionDto)
  function?: OpenAIFunctionDto;
}

const isToolChoice = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && ['none', 'auto', 'required'].includes(v)) ||
  (isPlainObject(v) && typeof v['type'] === 'string');

const isResponseFormat = (v: unknown): boolean =>
  v === undefined || v === null ||
  (isPlainObject(v) && ['text', 'json_object', 'json_schema'].includes(v['type'] as string) &&
    (v['type'] !== 'json_schema' || isPlainObject(v['json_schema'])));

/** Dialect A request: the documented fields are checked; everything else passes through untouched. */
export class OpenAIChatRequestDto extends RoutingFieldsDto {
  @IsDefined() @IsString()
  model!: string;

  @IsDefined() @IsArray() @ArrayMinSize(1) @ValidateNested({ each: true }) @Type(() => OpenAIMessageDto)
  messages!: OpenAIMessageDto[];

  @IsOptional() @IsBoolean() stream?: boolean;
  @IsOptional() @IsObject() stream_options?: Record<string, unknown>;
  @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) top_p?: number;
  @IsOptional() @IsInt() @Min(1) max_tokens?: number;
  @IsOptional() @IsInt() @Min(1) max_completion_tokens?: number;
  @IsOptional() @IsInt() @Min(1) @Max(128) n?: number;
  @IsOptional() @IsInt() seed?: number;
  @IsOptional() @IsNumber() @Min(-2) @Max(2) frequency_penalty?: number;
  @IsOptional() @IsNumber() @Min(-2) @Max(2) presence_penalty?: number;

  @ValidateIf((_, v) => v !== undefined && v !== null) @Satisfies((v) => isStringOrStringArray(v, 4), 'stop must be a string or an array of at most 4 strings')
  stop?: string | string[] | null;

  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => OpenAIToolDto)
  tools?: OpenAIToolDto[];

  @Satisfies(isToolChoice, "tool_choice must be 'none', 'auto', 'required' or an object naming a tool")
  tool_choice?: unknown;

  @IsOptional() @IsBoolean() parallel_tool_calls?: boolean;

  @Satisfies(isResponseFormat, "response_format must be {type: 'text' | 'json_object' | 'json_schema'} (json_schema needs a json_schema object)")
  response_format?: unknown;

  @IsOptional() @IsString() user?: string;
}
