import 'reflect-metadata';
import { GatewayError } from '@rosetta/canonical';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { formatPath, validateBody } from './validate-body';

class LimitDto {
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(1000)
  count!: number | null;
}

class PriceDto {
  @Matches(/^\d+(\.\d+)?$/, { message: 'prompt must be a USD-per-token decimal string' })
  prompt!: string;
}

class EndpointDto {
  @IsString() model!: string;
  @IsInt() @Min(1) context_length!: number;
  @IsDefined() @ValidateNested() @Type(() => PriceDto) pricing!: PriceDto;
}

class ThingDto {
  @IsString()
  @Length(1, 10)
  name!: string;

  @IsOptional() @IsNumber() @Min(0) @Max(1) ratio?: number;
  @IsOptional() @IsBoolean() enabled?: boolean;
  @IsOptional() @IsIn(['day', 'month']) period?: string;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => EndpointDto) endpoints?: EndpointDto[];
}

/** The 400 a body gets, as `{param, message}`, or 'ok'. */
function outcome(dto: new () => object, body: unknown, options?: Parameters<typeof validateBody>[2]): { param?: string; message: string } | 'ok' {
  try {
    validateBody(dto, body, options);
    return 'ok';
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    return { param: error.param, message: error.message };
  }
}

describe('validateBody messages', () => {
  it.each<[string, unknown, { param?: string; message: string } | 'ok']>([
    ['a field left out is required, whatever its range', {}, { param: 'count', message: "Missing required field 'count'" }],
    ['null where null is allowed passes', { count: null }, 'ok'],
    ['a whole number in range passes', { count: 5 }, 'ok'],
    ['a fraction is not a whole number (not a range problem)', { count: 1.5 }, { param: 'count', message: "Invalid 'count': must be a whole number" }],
    ['a string is not a whole number, even if it looks like one', { count: '600' }, { param: 'count', message: "Invalid 'count': must be a whole number" }],
    ['a boolean is not a whole number', { count: true }, { param: 'count', message: "Invalid 'count': must be a whole number" }],
    ['below the range', { count: 0 }, { param: 'count', message: "Invalid 'count': must not be less than 1" }],
    ['above the range', { count: 1001 }, { param: 'count', message: "Invalid 'count': must not be greater than 1000" }],
  ])('%s', (_, body, expected) => {
    expect(outcome(LimitDto, body)).toEqual(expected);
  });

  it.each<[string, unknown, { param?: string; message: string } | 'ok']>([
    ['a required string left out', {}, { param: 'name', message: "Missing required field 'name'" }],
    ['a required string given as null says what it must be', { name: null }, { param: 'name', message: "Invalid 'name': must be a string, not null" }],
    ['a string of the wrong type', { name: 5 }, { param: 'name', message: "Invalid 'name': must be a string" }],
    ['a string too long', { name: 'x'.repeat(11) }, { param: 'name', message: "Invalid 'name': must be shorter than or equal to 10 characters" }],
    ['a number given as a string', { name: 'a', ratio: '0.5' }, { param: 'ratio', message: "Invalid 'ratio': must be a number" }],
    ['a boolean given as a string', { name: 'a', enabled: 'yes' }, { param: 'enabled', message: "Invalid 'enabled': must be true or false" }],
    ['a value outside an enumeration', { name: 'a', period: 'week' }, { param: 'period', message: "Invalid 'period': must be one of day, month" }],
    ['an array given as an object', { name: 'a', endpoints: {} }, { param: 'endpoints', message: "Invalid 'endpoints': must be an array" }],
    ['a nested field names its whole path', { name: 'a', endpoints: [{ model: 'm', context_length: 0, pricing: { prompt: '1' } }] }, {
      param: 'endpoints[0].context_length',
      message: "Invalid 'endpoints[0].context_length': must not be less than 1",
    }],
    ['a nested object left out is required', { name: 'a', endpoints: [{ model: 'm', context_length: 8 }] }, {
      param: 'endpoints[0].pricing',
      message: "Missing required field 'endpoints[0].pricing'",
    }],
    ['a nested object of the wrong type', { name: 'a', endpoints: [{ model: 'm', context_length: 8, pricing: 'cheap' }] }, {
      param: 'endpoints[0].pricing',
      message: "Invalid 'endpoints[0].pricing': must be an object",
    }],
    ['a custom message keeps its words, without the bare property name', { name: 'a', endpoints: [{ model: 'm', context_length: 8, pricing: { prompt: 'free' } }] }, {
      param: 'endpoints[0].pricing.prompt',
      message: "Invalid 'endpoints[0].pricing.prompt': must be a USD-per-token decimal string",
    }],
    ['the first bad field in declaration order is named', { name: null, ratio: 7 }, { param: 'name', message: "Invalid 'name': must be a string, not null" }],
  ])('%s', (_, body, expected) => {
    expect(outcome(ThingDto, body)).toEqual(expected);
  });

  it('refuses a body that is not an object, naming what it is', () => {
    expect(outcome(LimitDto, [1])).toEqual({ param: undefined, message: 'The request body must be a JSON object' });
    expect(outcome(LimitDto, null, 'providers file')).toEqual({ param: undefined, message: 'The providers file must be a JSON object' });
  });

  it('keeps unknown fields by default and refuses them when asked', () => {
    expect(outcome(LimitDto, { count: 2, extra: true })).toBe('ok');
    expect(outcome(LimitDto, { count: 2, cuont: 3 }, { rejectUnknown: true })).toEqual({ param: 'cuont', message: "Unknown field 'cuont'" });
  });

  it('returns the instance with the fields as given', () => {
    expect(validateBody(LimitDto, { count: 7 })).toEqual(expect.objectContaining({ count: 7 }));
  });
});

describe('formatPath', () => {
  it('writes indexes in brackets and fields with dots', () => {
    expect(formatPath(['messages', '2', 'role'])).toBe('messages[2].role');
    expect(formatPath(['model'])).toBe('model');
  });
});
