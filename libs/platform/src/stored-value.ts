import { GatewayError } from '@rosetta/canonical';
import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * NUL, or half of a UTF-16 surrogate pair: PostgreSQL's text refuses the first and jsonb both, so
 * a string holding either fails at the INSERT (a 500) or, worse, only in the audit row beside it.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL (\\u0000) or an unpaired UTF-16 surrogate';

/** Whether PostgreSQL can store `value` as text and inside jsonb. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * A string that will be stored (a name, a URL, a model id): refused with a 400 naming the field
 * when it holds what PostgreSQL cannot store. Other types pass, for `@IsString` to report.
 */
export const IsStoredText = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isStoredText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: () => UNSTORABLE_TEXT_MESSAGE,
      },
    },
    options,
  );

/** Query and path parameters that reach a query or a stored row: the same rule, as a 400 naming it. */
export function checkStoredText<T extends string | undefined>(value: T, param: string): T {
  if (value !== undefined && !isStorableText(value)) throw GatewayError.invalidRequest(`Invalid '${param}': ${UNSTORABLE_TEXT_MESSAGE}`, param);
  return value;
}

/** The largest value of each PostgreSQL integer column type (bigint: as far as a JS number is exact). */
export const COLUMN_INT_MAX = { smallint: 32_767, integer: 2_147_483_647, bigint: Number.MAX_SAFE_INTEGER } as const;

/**
 * A whole number bounded to the column that stores it, so `1e300` or `3000000000` in an integer
 * column is a 400 naming the field instead of an out-of-range error from the database.
 * The checks run bottom first, as stacked decorators would: the type is reported before the range.
 */
export const ColumnInt = (column: keyof typeof COLUMN_INT_MAX, min = 0): PropertyDecorator =>
  applyDecorators(Max(COLUMN_INT_MAX[column]), Min(min), IsInt());
