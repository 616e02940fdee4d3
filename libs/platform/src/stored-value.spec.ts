import { IsOptional, IsString } from 'class-validator';
import { ColumnInt, isStorableText, IsStoredText } from './stored-value';
import { validateBody, validatedFields } from './validate-body';

class NoteDto {
  @IsStoredText() @IsString() name!: string;
  @IsOptional() @ColumnInt('integer', 1) size?: number;
}

const refusal = (body: unknown): { param?: string; message: string } | undefined => {
  try {
    validateBody(NoteDto, body);
    return undefined;
  } catch (error) {
    return { param: (error as { param?: string }).param, message: (error as Error).message };
  }
};

describe('stored values', () => {
  it('tells text PostgreSQL can store from NUL and unpaired surrogates', () => {
    expect(['', 'plain', 'emoji 😀', 'модель'].map(isStorableText)).toEqual([true, true, true, true]);
    expect(['\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800', '😀'.slice(0, 1)].map(isStorableText)).toEqual([false, false, false, false, false, false]);
  });

  it('refuses such text and integers beyond their column with a 400 naming the field', () => {
    const text = "Invalid 'name': must not contain NUL (\\u0000) or an unpaired UTF-16 surrogate";
    expect(refusal({ name: 'a\u0000' })).toEqual({ param: 'name', message: text });
    expect(refusal({ name: '\ud800' })).toEqual({ param: 'name', message: text });
    expect(refusal({ name: 5 })).toEqual({ param: 'name', message: "Invalid 'name': must be a string" });
    expect(refusal({ name: 'n', size: 1e300 })).toEqual({ param: 'size', message: "Invalid 'size': must not be greater than 2147483647" });
    expect(refusal({ name: 'n', size: 3_000_000_000 })).toEqual({ param: 'size', message: "Invalid 'size': must not be greater than 2147483647" });
    expect(refusal({ name: 'n', size: 1.5 })).toEqual({ param: 'size', message: "Invalid 'size': must be a whole number" });
    expect(refusal({ name: 'n', size: 2_147_483_647 })).toBeUndefined();
  });

  it('keeps only the declared fields of a validated body', () => {
    expect(validatedFields(validateBody(NoteDto, { name: 'n', note: '\u0000', size: 3 }))).toEqual({ name: 'n', size: 3 });
  });
});
