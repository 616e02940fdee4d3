/** The vetted subset of regular expressions operators may write, as parsed. */

/** Sorted, non-overlapping inclusive UTF-16 code ranges; `negated` inverts the set. */
export interface CharSet {
  ranges: Array<[number, number]>;
  negated: boolean;
}

export type AssertKind = 'start' | 'end' | 'word' | 'not_word';

export type RegexNode =
  | { type: 'empty' }
  | { type: 'char'; set: CharSet }
  | { type: 'seq'; items: RegexNode[] }
  | { type: 'alt'; alternatives: RegexNode[] }
  | { type: 'repeat'; node: RegexNode; min: number; max: number }
  | { type: 'assert'; kind: AssertKind };

/** A pattern the subset refuses, or one too big; `index` is the offending position in the pattern. */
export interface RegexSyntaxError {
  message: string;
  index: number;
}

/** The longest match a node can make: Infinity under an unbounded repeat of something non-empty. */
export function maxMatchLength(node: RegexNode): number {
  switch (node.type) {
    case 'empty':
    case 'assert':
      return 0;
    case 'char':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + maxMatchLength(item), 0);
    case 'alt':
      return Math.max(0, ...node.alternatives.map(maxMatchLength));
    case 'repeat': {
      const inner = maxMatchLength(node.node);
      return inner === 0 ? 0 : inner * node.max;
    }
  }
}

/** Whether the node can match without consuming a character. */
export function matchesEmpty(node: RegexNode): boolean {
  switch (node.type) {
    case 'empty':
    case 'assert':
      return true;
    case 'char':
      return false;
    case 'seq':
      return node.items.every(matchesEmpty);
    case 'alt':
      return node.alternatives.some(matchesEmpty);
    case 'repeat':
      return node.min === 0 || matchesEmpty(node.node);
  }
}
