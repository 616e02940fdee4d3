import fc from 'fast-check';
import { depthOf } from '../__fixtures__/fuzz-bodies';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-nesting';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const arrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const objects = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

/** JSON whose strings are full of what could fool a byte scanner: brackets, quotes, backslashes. */
const trickyText = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', 'a', 'é', '🦀', '\n'), maxLength: 12 });
const trickyJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(trickyText, fc.integer(), fc.constant(null), fc.boolean()),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(trickyText, tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
})).value;

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, the top level as 1', () => {
    expect(nestsDeeperThan(bytes(arrays(MAX_JSON_DEPTH)), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(arrays(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes(objects(MAX_JSON_DEPTH)), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(objects(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes('[1,[2,{"a":[3]}],[]]'), 3)).toBe(true);
    expect(nestsDeeperThan(bytes('[1,[2,{"a":[3]}],[]]'), 4)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes and backslashes included', () => {
    const inString = JSON.stringify({ text: `${'['.repeat(300)}"\\${'{'.repeat(300)}` });
    expect(nestsDeeperThan(bytes(inString), 2)).toBe(false);
    // The string ends after an escaped backslash: the brackets after it count.
    expect(nestsDeeperThan(bytes(`["\\\\",${arrays(4)}]`), 4)).toBe(true);
    expect(nestsDeeperThan(bytes(`["\\"",${arrays(4)}]`), 4)).toBe(true);
  });

  it('walks 100,000 levels without recursion, and stops at the first level too deep', () => {
    expect(nestsDeeperThan(bytes(arrays(100_000)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes(objects(100_000)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes('['.repeat(100_000)), MAX_JSON_DEPTH)).toBe(true);
  });

  it('skips bodies too short to nest that deep, and never throws on invalid text', () => {
    expect(nestsDeeperThan(bytes('['.repeat(2 * MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(`"${'['.repeat(1000)}`), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(Buffer.from([0xff, 0xfe, 0x22, 0x5c]), 0)).toBe(false);
  });

  it('agrees with the depth of the parsed value on any JSON, compact or indented', () => {
    fc.assert(
      fc.property(trickyJson, fc.integer({ min: 0, max: 8 }), fc.boolean(), (value, limit, indent) => {
        const text = JSON.stringify(value, null, indent ? 2 : undefined);
        expect(nestsDeeperThan(bytes(text), limit)).toBe(depthOf(value) > limit);
      }),
      { seed: 1212, numRuns: 2000 },
    );
  });
});
