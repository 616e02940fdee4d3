import { type CompiledCharSet } from './regex-charset';

export const enum Op {
  Char = 0,
  Split = 1,
  Jump = 2,
  Assert = 3,
  Match = 4,
}

export const ASSERT_CODES = { start: 0, end: 1, word: 2, not_word: 3 } as const;

/**
 * A Thompson NFA as a flat program: `Char` steps on a character in `sets[a]`; `Split` forks to
 * `a` and `b`; `Jump` goes to `a`; `Assert` tests `ASSERT_CODES[a]` at the position; `Match`
 * reports pattern `a`. One program holds every pattern of a check, each ending in its own Match.
 */
export interface RegexProgram {
  ops: Uint8Array;
  a: Int32Array;
  b: Int32Array;
  sets: CompiledCharSet[];
  /** The kind each pattern's matches are reported as. */
  kinds: string[];
  /**
   * What a match can begin with: the union of the Char instructions reachable from the start
   * (assertions passed over). Where no thread is alive and the next character is not in it, a
   * scan moves on without seeding.
   */
  first: CompiledCharSet;
  /** The longest match any pattern can make, or Infinity. */
  maxLength: number;
}
