import { type CharSet, type RegexNode, type RegexSyntaxError, matchesEmpty, maxMatchLength } from './regex-ast';
import { compileCharSet, type CompiledCharSet } from './regex-charset';
import { parseRegex } from './regex-parser';
import { ASSERT_CODES, Op, type RegexProgram } from './regex-program';

/**
 * The most instructions one check's patterns may compile to. It bounds the work per character
 * of scanned text (at most two visits per instruction), so a scan is O(text × MAX_PROGRAM_SIZE).
 */
export const MAX_PROGRAM_SIZE = 4000;

export interface RegexSource {
  pattern: string;
  kind: string;
}

export type CompiledRegex = { program: RegexProgram } | { error: RegexSyntaxError & { pattern: number } };

/** Parses and compiles a check's patterns into one program, refusing any that could match empty. */
export function compileRegexes(sources: readonly RegexSource[], ignoreCase: boolean): CompiledRegex {
  const nodes: RegexNode[] = [];
  for (const [index, source] of sources.entries()) {
    const parsed = parseRegex(source.pattern);
    if ('error' in parsed) return { error: { ...parsed.error, pattern: index } };
    if (matchesEmpty(parsed.node)) return { error: { message: 'pattern can match empty text', index: 0, pattern: index } };
    nodes.push(parsed.node);
  }
  const emitter = new Emitter(ignoreCase);
  const ok = emitter.patterns(nodes);
  if (ok !== true) return { error: { message: `pattern too large once repeats are expanded (over ${MAX_PROGRAM_SIZE} steps for the check)`, index: 0, pattern: ok } };
  return {
    program: {
      ops: Uint8Array.from(emitter.ops),
      a: Int32Array.from(emitter.a),
      b: Int32Array.from(emitter.b),
      sets: emitter.sets,
      first: firstCharacters(emitter),
      kinds: sources.map((s) => s.kind),
      maxLength: Math.max(...nodes.map(maxMatchLength)),
    },
  };
}

class TooLarge extends Error {}

function firstCharacters(program: Pick<Emitter, 'ops' | 'a' | 'b' | 'sets'>): CompiledCharSet {
  const first: CompiledCharSet = { ascii: new Uint8Array(128), ranges: [] };
  const seen = new Set<number>();
  const stack = [0];
  while (stack.length > 0) {
    const pc = stack.pop() as number;
    if (seen.has(pc)) continue;
    seen.add(pc);
    const op = program.ops[pc];
    if (op === Op.Split) stack.push(program.a[pc] as number, program.b[pc] as number);
    else if (op === Op.Jump) stack.push(program.a[pc] as number);
    else if (op === Op.Assert) stack.push(pc + 1);
    else if (op === Op.Char) {
      const set = program.sets[program.a[pc] as number] as CompiledCharSet;
      for (let c = 0; c < 128; c += 1) first.ascii[c] = (first.ascii[c] as number) | (set.ascii[c] as number);
      first.ranges.push(...set.ranges);
    }
  }
  return first;
}

class Emitter {
  ops: number[] = [];
  a: number[] = [];
  b: number[] = [];
  sets: CompiledCharSet[] = [];
  private readonly setIndex = new Map<CharSet, number>();

  constructor(private readonly ignoreCase: boolean) {}

  /** Emits every pattern behind a chain of splits; true, or the index of the pattern that overflowed. */
  patterns(nodes: RegexNode[]): true | number {
    for (const [index, node] of nodes.entries()) {
      try {
        const split = index < nodes.length - 1 ? this.emit(Op.Split, 0, 0) : -1;
        if (split >= 0) this.a[split] = split + 1;
        this.node(node);
        this.emit(Op.Match, index, 0);
        if (split >= 0) this.b[split] = this.ops.length;
      } catch (error) {
        if (error instanceof TooLarge) return index;
        throw error;
      }
    }
    return true;
  }

  private emit(op: Op, a: number, b: number): number {
    if (this.ops.length >= MAX_PROGRAM_SIZE) throw new TooLarge();
    this.ops.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.ops.length - 1;
  }

  private node(node: RegexNode): void {
    switch (node.type) {
      case 'empty':
        return;
      case 'char':
        this.emit(Op.Char, this.charSet(node.set), 0);
        return;
      case 'assert':
        this.emit(Op.Assert, ASSERT_CODES[node.kind], 0);
        return;
      case 'seq':
        for (const item of node.items) this.node(item);
        return;
      case 'alt':
        this.alternation(node.alternatives);
        return;
      case 'repeat':
        this.repeat(node.node, node.min, node.max);
        return;
    }
  }

  private alternation(alternatives: RegexNode[]): void {
    const jumps: number[] = [];
    for (const [index, alternative] of alternatives.entries()) {
      const split = index < alternatives.length - 1 ? this.emit(Op.Split, 0, 0) : -1;
      if (split >= 0) this.a[split] = split + 1;
      this.node(alternative);
      if (split >= 0) {
        jumps.push(this.emit(Op.Jump, 0, 0));
        this.b[split] = this.ops.length;
      }
    }
    for (const jump of jumps) this.a[jump] = this.ops.length;
  }

  /** {min,max} as min copies, then either a loop (max Infinity) or max - min optional copies. */
  private repeat(body: RegexNode, min: number, max: number): void {
    for (let i = 0; i < min; i += 1) this.node(body);
    if (max === Infinity) {
      const split = this.emit(Op.Split, 0, 0);
      this.a[split] = split + 1;
      this.node(body);
      this.emit(Op.Jump, split, 0);
      this.b[split] = this.ops.length;
      return;
    }
    const splits: number[] = [];
    for (let i = min; i < max; i += 1) {
      const split = this.emit(Op.Split, 0, 0);
      this.a[split] = split + 1;
      splits.push(split);
      this.node(body);
    }
    for (const split of splits) this.b[split] = this.ops.length;
  }

  private charSet(set: CharSet): number {
    let index = this.setIndex.get(set);
    if (index === undefined) {
      index = this.sets.push(compileCharSet(set, this.ignoreCase)) - 1;
      this.setIndex.set(set, index);
    }
    return index;
  }
}
