/**
 * Counting cue phrases in a prompt in one pass over its words (text-features' `words`, which the
 * classifier and the quality model have already computed for the same text), instead of one
 * regular-expression scan per cue: the difficulty signal reads a dozen cue lists on every decision.
 *
 * A phrase is written as space-separated tokens as `words` splits them (lower case; punctuation
 * is a token of its own, so "trade-offs" is `trade - offs`). In a token, `|` separates
 * alternatives, a trailing `*` makes an alternative a prefix, a trailing `?` makes the token
 * optional, `#` is any number and `###` a number of three digits or more.
 */

interface Alternative {
  text: string;
  prefix: boolean;
}

interface Token {
  alternatives: Alternative[];
  optional: boolean;
}

interface Phrase {
  tokens: Token[];
  cue: number;
}

export interface CompiledCues {
  /** Phrases by the exact text of their first token. */
  byFirst: Map<string, Phrase[]>;
  /** Phrases whose first token is a prefix (or a number class), by its first three characters (`NUMBER_KEY` for numbers). */
  byPrefix: Map<number, Phrase[]>;
  cues: number;
}

function parseToken(raw: string): Token {
  const optional = raw.length > 1 && raw.endsWith('?');
  const body = optional ? raw.slice(0, -1) : raw;
  const alternatives = body.split('|').map((a) => (a.length > 1 && a.endsWith('*') ? { text: a.slice(0, -1), prefix: true } : { text: a, prefix: false }));
  return { alternatives, optional };
}

function isNumber(w: string): boolean {
  if (w.length === 0) return false;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The key of a word's first three characters (numeric: no string is built per word). */
const prefixKey = (w: string): number => (w.charCodeAt(0) * 65536 + w.charCodeAt(1)) * 65536 + w.charCodeAt(2);
const NUMBER_KEY = -1;

function matchesAlternative(a: Alternative, word: string): boolean {
  if (a.text === '#') return isNumber(word);
  if (a.text === '###') return word.length >= 3 && isNumber(word);
  return a.prefix ? word.startsWith(a.text) : word === a.text;
}

const matches = (t: Token, word: string | undefined): boolean => word !== undefined && t.alternatives.some((a) => matchesAlternative(a, word));

/** Compiles cue lists (one list of phrases per cue) into lookup tables, once. */
export function compileCues(lists: readonly (readonly string[])[]): CompiledCues {
  const byFirst = new Map<string, Phrase[]>();
  const byPrefix = new Map<number, Phrase[]>();
  const add = <K>(map: Map<K, Phrase[]>, key: K, phrase: Phrase): void => {
    const list = map.get(key) ?? [];
    if (!list.includes(phrase)) list.push(phrase);
    map.set(key, list);
  };
  lists.forEach((phrases, cue) => {
    for (const spec of phrases) {
      const phrase = { tokens: spec.split(' ').filter(Boolean).map(parseToken), cue };
      const first = phrase.tokens[0];
      if (!first || first.optional) throw new Error(`cue phrase '${spec}' must start with a required token`);
      for (const a of first.alternatives) {
        if (a.text === '#' || a.text === '###') add(byPrefix, NUMBER_KEY, phrase);
        else if (a.prefix) {
          if (a.text.length < 3) throw new Error(`cue phrase '${spec}': a prefix needs at least three characters`);
          add(byPrefix, prefixKey(a.text), phrase);
        } else add(byFirst, a.text, phrase);
      }
    }
  });
  if (lists.length > 31) throw new Error('at most 31 cue lists');
  return { byFirst, byPrefix, cues: lists.length };
}

/** Where `phrase`, matched from position `at`, ends (exclusive; optional tokens may be skipped), or −1. */
function matchEnd(phrase: Phrase, words: readonly string[], at: number): number {
  let i = at;
  for (const token of phrase.tokens) {
    if (matches(token, words[i])) i++;
    else if (!token.optional) return -1;
  }
  return i;
}

const matchAt = (phrase: Phrase, words: readonly string[], at: number): boolean => matchEnd(phrase, words, at) >= 0;

/** Counts the phrases of `list` that match at `at`, skipping cues already counted there (`seen`, a bit set). */
function countFrom(list: Phrase[] | undefined, words: readonly string[], at: number, counts: number[], seen: number): number {
  if (!list) return seen;
  for (const phrase of list) {
    const bit = 1 << phrase.cue;
    if ((seen & bit) !== 0 || !matchAt(phrase, words, at)) continue;
    seen |= bit;
    counts[phrase.cue] = (counts[phrase.cue] as number) + 1;
  }
  return seen;
}

/**
 * How many times each cue occurs in the words (at most once per starting word); only phrases
 * starting in [from, to) are counted.
 */
export function countCues(compiled: CompiledCues, words: readonly string[], from = 0, to = words.length, counts = new Array<number>(compiled.cues).fill(0)): number[] {
  for (let i = Math.max(0, from); i < Math.min(to, words.length); i++) {
    const word = words[i] as string;
    const seen = countFrom(compiled.byFirst.get(word), words, i, counts, 0);
    const number = isNumber(word);
    if (number || word.length >= 3) countFrom(compiled.byPrefix.get(number ? NUMBER_KEY : prefixKey(word)), words, i, counts, seen);
  }
  return counts;
}

/** Counts over the first `head` and the last `tail` words only: the instruction and the question of a long prompt. */
export function countCuesHeadTail(compiled: CompiledCues, words: readonly string[], head: number, tail: number): number[] {
  if (words.length <= head + tail) return countCues(compiled, words);
  return countCues(compiled, words, words.length - tail, words.length, countCues(compiled, words, 0, head));
}

/** The end of the longest phrase of `list` matching at `at` (`at` itself when none does). */
function longestFrom(list: Phrase[] | undefined, words: readonly string[], at: number, end: number): number {
  if (!list) return end;
  for (const phrase of list) end = Math.max(end, matchEnd(phrase, words, at));
  return end;
}

/** Where the longest phrase starting at word `at` ends (exclusive), or `at` when none starts there. */
export function longestMatchAt(compiled: CompiledCues, words: readonly string[], at: number): number {
  const word = words[at];
  if (word === undefined) return at;
  const end = longestFrom(compiled.byFirst.get(word), words, at, at);
  const number = isNumber(word);
  return number || word.length >= 3 ? longestFrom(compiled.byPrefix.get(number ? NUMBER_KEY : prefixKey(word)), words, at, end) : end;
}

/**
 * Which words any phrase covers (1 = inside a match), left to right, longest match first: the
 * words of "step by step" in "Prove it, step by step." One pass, as `countCues`.
 */
export function coveredWords(compiled: CompiledCues, words: readonly string[]): Uint8Array {
  const covered = new Uint8Array(words.length);
  let i = 0;
  while (i < words.length) {
    const end = longestMatchAt(compiled, words, i);
    if (end === i) i++;
    else {
      covered.fill(1, i, end);
      i = end;
    }
  }
  return covered;
}
