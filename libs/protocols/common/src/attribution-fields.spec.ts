import { GatewayError } from '@rosetta/canonical';
import { endUserProblem, optionalEndUser, optionalTags, parseTagList, withoutGatewayTags } from './attribution-fields';

function refusal(run: () => unknown): { param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return { param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('optionalEndUser', () => {
  it('takes a string, trimmed; absent, null and blank are no end user', () => {
    expect(optionalEndUser({ user: '  alice@example.com ' }, 'user')).toBe('alice@example.com');
    expect(optionalEndUser({ user: 'ユーザー 😀' }, 'user')).toBe('ユーザー 😀');
    expect([optionalEndUser({}, 'user'), optionalEndUser({ user: null }, 'user'), optionalEndUser({ user: '   ' }, 'user')]).toEqual([undefined, undefined, undefined]);
  });

  it('refuses a wrong type, an overlong value, control characters and broken Unicode, naming the field', () => {
    expect(refusal(() => optionalEndUser({ user_id: 7 }, 'user_id', 'metadata'))).toEqual({ param: 'metadata.user_id', message: "Invalid 'metadata.user_id': must be a string" });
    expect(refusal(() => optionalEndUser({ user: 'x'.repeat(257) }, 'user'))).toEqual({ param: 'user', message: "Invalid 'user': must be at most 256 characters, got 257" });
    expect(optionalEndUser({ user: 'x'.repeat(256) }, 'user')).toBe('x'.repeat(256));
    expect(refusal(() => optionalEndUser({ user: 'a\nb' }, 'user'))).toEqual({ param: 'user', message: "Invalid 'user': must not contain control characters" });
    expect(refusal(() => optionalEndUser({ user: 'a\u0085' }, 'user')).param).toBe('user');
    expect(refusal(() => optionalEndUser({ user: 'a\ud800' }, 'user'))).toEqual({ param: 'user', message: "Invalid 'user': must be valid Unicode text" });
  });

  it('is linear on a long hostile value (a bounded check, whatever the text)', () => {
    expect(endUserProblem('\ud800'.repeat(100_000))).toBe('must be at most 256 characters, got 100000');
    expect(endUserProblem('\ud83d\ude00'.repeat(128))).toBeUndefined();
  });
});

describe('optionalTags', () => {
  it('takes a list or a comma-separated string: trimmed, blanks and duplicates dropped, order kept', () => {
    expect(optionalTags({ tags: [' env=prod', 'team:search', 'env=prod', ''] })).toEqual(['env=prod', 'team:search']);
    expect(optionalTags({ tags: 'a, b,,a ,feature/chat' })).toEqual(['a', 'b', 'feature/chat']);
    expect([optionalTags({}), optionalTags({ tags: null }), optionalTags({ tags: [] }), optionalTags({ tags: ' , ' })]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('refuses wrong types, a bad character, an overlong tag and too many tags, naming the field', () => {
    expect(refusal(() => optionalTags({ tags: { a: 1 } })).param).toBe('metadata.tags');
    expect(refusal(() => optionalTags({ tags: ['ok', 3] }))).toEqual({ param: 'metadata.tags[1]', message: "Invalid 'metadata.tags[1]': must be a string" });
    expect(refusal(() => optionalTags({ tags: ['has space'] })).message).toBe(
      "Invalid 'metadata.tags': must hold at most 16 tags of 1 to 64 characters each (letters, digits and _ - . : / = @ +); 'has space' is not one",
    );
    expect(refusal(() => optionalTags({ tags: ['é\u0000<script>'] })).message).toContain("'???script?' is not one");
    expect(refusal(() => optionalTags({ tags: ['x'.repeat(65)] })).param).toBe('metadata.tags');
    expect(optionalTags({ tags: ['x'.repeat(64)] })).toEqual(['x'.repeat(64)]);
    const sixteen = Array.from({ length: 16 }, (_, i) => `t${i}`);
    expect(optionalTags({ tags: sixteen })).toEqual(sixteen);
    expect(refusal(() => optionalTags({ tags: [...sixteen, 't16'] })).param).toBe('metadata.tags');
    expect(refusal(() => optionalTags({ tags: Array.from({ length: 1000 }, () => 'a') })).param).toBe('metadata.tags');
  });

  it('bounds a header-sized list before splitting it', () => {
    expect(refusal(() => parseTagList(','.repeat(100_000), 'x-rosetta-tags')).param).toBe('x-rosetta-tags');
  });
});

describe('withoutGatewayTags', () => {
  it('drops a list of tags from metadata (OpenAI takes string values only; Anthropic user_id alone) and keeps the rest', () => {
    const body = { model: 'm', metadata: { tags: ['a'], user_id: 'u' } };
    expect(withoutGatewayTags(body, true)).toEqual({ model: 'm', metadata: { user_id: 'u' } });
    expect(body.metadata.tags).toEqual(['a']);
    expect(withoutGatewayTags({ metadata: { tags: 'a,b', k: 'v' } }, true)).toEqual({ metadata: { tags: 'a,b', k: 'v' } });
    expect(withoutGatewayTags({ metadata: { tags: 'a,b', user_id: 'u' } }, false)).toEqual({ metadata: { user_id: 'u' } });
    const untouched = { metadata: { k: 'v' } };
    expect(withoutGatewayTags(untouched, true)).toBe(untouched);
  });
});
