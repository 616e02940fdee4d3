import { type CharSet, type RegexNode, type RegexSyntaxError } from './regex-ast';
import { LINE_TERMINATOR_RANGES, invertRanges } from './regex-charset';
import { readEscape } from './regex-escape';

/** The largest bound a counted repeat may have; {m,n} is expanded into copies. */
export const MAX_REPEAT = 100;

class Refusal extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/**
 * Parses the vetted subset: literals, escapes, classes, `.`, `|`, groups, `?` `*` `+` `{m,n}`
 * (lazy forms too: with every match taken, laziness changes nothing), `^` `$` `\b` `\B`.
 * Everything else — backreferences, lookaround, unicode escapes — is refused with the position.
 */
export function parseRegex(pattern: string): { node: RegexNode } | { error: RegexSyntaxError } {
  try {
    const parser = new RegexParser(pattern);
    const node = parser.alternation();
    if (parser.pos < pattern.length) throw new Refusal('unmatched )', parser.pos);
    return { node };
  } catch (error) {
    if (error instanceof Refusal) return { error: { message: error.message, index: error.index } };
    throw error;
  }
}

class RegexParser {
  pos = 0;

  constructor(private readonly pattern: string) {}

  alternation(): RegexNode {
    const alternatives = [this.sequence()];
    while (this.peek() === '|') {
      this.pos += 1;
      alternatives.push(this.sequence());
    }
    return alternatives.length === 1 ? (alternatives[0] as RegexNode) : { type: 'alt', alternatives };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.pattern.length && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.quantified(this.atom()));
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? (items[0] as RegexNode) : { type: 'seq', items };
  }

  private atom(): RegexNode {
    const start = this.pos;
    const ch = this.pattern[this.pos] as string;
    this.pos += 1;
    switch (ch) {
      case '(':
        return this.group(start);
      case '[':
        return { type: 'char', set: this.charClass() };
      case '.':
        return { type: 'char', set: { ranges: LINE_TERMINATOR_RANGES, negated: true } };
      case '^':
        return { type: 'assert', kind: 'start' };
      case '$':
        return { type: 'assert', kind: 'end' };
      case '\\':
        return this.escapeAtom();
      case '*':
      case '+':
      case '?':
        throw new Refusal('nothing to repeat', start);
      case '{':
        throw new Refusal('a literal { must be escaped as \\{', start);
      default:
        return literal(ch.charCodeAt(0));
    }
  }

  private group(start: number): RegexNode {
    if (this.pattern.startsWith('?:', this.pos)) this.pos += 2;
    else if (this.pattern.startsWith('?=', this.pos) || this.pattern.startsWith('?!', this.pos)) throw new Refusal('lookahead is not supported', start);
    else if (this.pattern.startsWith('?<=', this.pos) || this.pattern.startsWith('?<!', this.pos)) throw new Refusal('lookbehind is not supported', start);
    else if (this.pattern.startsWith('?<', this.pos)) this.skipGroupName(start);
    else if (this.peek() === '?') throw new Refusal('unsupported group syntax (?', start);
    const node = this.alternation();
    if (this.peek() !== ')') throw new Refusal('unterminated group', start);
    this.pos += 1;
    return node;
  }

  private skipGroupName(start: number): void {
    const close = this.pattern.indexOf('>', this.pos);
    if (close < 0 || !/^\?<[A-Za-z_][A-Za-z0-9_]*$/.test(this.pattern.slice(this.pos, close))) throw new Refusal('invalid group name', start);
    this.pos = close + 1;
  }

  private escapeAtom(): RegexNode {
    const start = this.pos - 1;
    const next = this.peek();
    if (next === 'b') {
      this.pos += 1;
      return { type: 'assert', kind: 'word' };
    }
    if (next === 'B') {
      this.pos += 1;
      return { type: 'assert', kind: 'not_word' };
    }
    const escape = readEscape(this.pattern, this.pos);
    if ('error' in escape) throw new Refusal(escape.error, start);
    this.pos = escape.end;
    return { type: 'char', set: escape.set };
  }

  private quantified(atom: RegexNode): RegexNode {
    const start = this.pos;
    const bounds = this.quantifier();
    if (bounds === null) return atom;
    if (atom.type === 'assert' || atom.type === 'empty') throw new Refusal('nothing to repeat', start);
    if (this.peek() === '?') this.pos += 1;
    const next = this.peek();
    if (next === '*' || next === '+' || next === '?' || next === '{') throw new Refusal('nested quantifier', this.pos);
    return { type: 'repeat', node: atom, min: bounds.min, max: bounds.max };
  }

  private quantifier(): { min: number; max: number } | null {
    const ch = this.peek();
    if (ch === '*' || ch === '+' || ch === '?') {
      this.pos += 1;
      return { min: ch === '+' ? 1 : 0, max: ch === '?' ? 1 : Infinity };
    }
    if (ch !== '{') return null;
    const start = this.pos;
    const match = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(this.pattern.slice(this.pos, this.pos + 12));
    if (match === null) throw new Refusal('a literal { must be escaped as \\{', start);
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    if (min > max) throw new Refusal('repeat bounds out of order', start);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new Refusal(`repeat bound above ${MAX_REPEAT}`, start);
    this.pos += match[0].length;
    return { min, max };
  }

  private charClass(): CharSet {
    const start = this.pos - 1;
    const negated = this.peek() === '^';
    if (negated) this.pos += 1;
    const ranges: Array<[number, number]> = [];
    while (this.peek() !== ']') {
      if (this.pos >= this.pattern.length) throw new Refusal('unterminated character class', start);
      const low = this.classAtom();
      if (this.peek() === '-' && this.pos + 1 < this.pattern.length && this.pattern[this.pos + 1] !== ']') {
        this.pos += 1;
        if (this.pos >= this.pattern.length) throw new Refusal('unterminated character class', start);
        const high = this.classAtom();
        if (!low.single || !high.single) throw new Refusal('a class escape cannot bound a range', start);
        const lo = (low.ranges[0] as [number, number])[0];
        const hi = (high.ranges[0] as [number, number])[0];
        if (lo > hi) throw new Refusal('character class range out of order', start);
        ranges.push([lo, hi]);
      } else ranges.push(...low.ranges);
    }
    this.pos += 1;
    return { ranges, negated };
  }

  /** One class member: a single code (which may bound a range), or a class escape's ranges. */
  private classAtom(): { ranges: Array<[number, number]>; single: boolean } {
    const ch = this.pattern[this.pos] as string;
    if (ch !== '\\') {
      this.pos += 1;
      return { ranges: [[ch.charCodeAt(0), ch.charCodeAt(0)]], single: true };
    }
    if (this.pattern[this.pos + 1] === 'b') throw new Refusal('\\b inside a class is ambiguous; use \\x08', this.pos);
    const escape = readEscape(this.pattern, this.pos + 1);
    if ('error' in escape) throw new Refusal(escape.error, this.pos);
    this.pos = escape.end;
    const { ranges, negated } = escape.set;
    return { ranges: negated ? invertRanges(ranges) : ranges, single: escape.single };
  }

  private peek(): string | undefined {
    return this.pattern[this.pos];
  }
}

function literal(code: number): RegexNode {
  return { type: 'char', set: { ranges: [[code, code]], negated: false } };
}
