import { type Finding, type ScanMeter } from '../finding';
import { charSetHas, type CompiledCharSet } from './regex-charset';
import { Op, type RegexProgram } from './regex-program';

export interface RunOptions {
  /** Whether offset 0 is the start of the whole text (for `^` and `\b`). */
  atStart: boolean;
  /** Whether the end of `text` is the end of the whole text (for `$` and `\b`); false mid-stream. */
  atEnd: boolean;
  /** Where to start looking; matches starting earlier are not reported. */
  from: number;
}

/**
 * A Pike VM: every thread advances one character at a time, at most one thread per instruction
 * per position, so the work is O(text × program size) whatever the pattern — no backtracking.
 *
 * Semantics: every non-empty match from every start position, reported as their union per
 * pattern (overlapping matches joined). Redaction and blocking need exactly which characters
 * some match covers, and this is what makes the result independent of where a scan begins
 * (streaming). A thread started earlier wins an instruction, so a Match reached at position p
 * carries the earliest start of any match ending at p; the union of those spans is the union of
 * all matches.
 */
export function runRegexProgram(program: RegexProgram, text: string, options: RunOptions, meter: ScanMeter): Finding[] {
  return new PikeVm(program, text, options, meter).run();
}

class PikeVm {
  private readonly size: number;
  private current: ThreadList;
  private next: ThreadList;
  private readonly seen: Uint32Array;
  private generation = 0;
  private readonly stack: Int32Array;
  private readonly openStart: Int32Array;
  private readonly openEnd: Int32Array;
  private readonly found: Finding[] = [];

  constructor(
    private readonly program: RegexProgram,
    private readonly text: string,
    private readonly options: RunOptions,
    private readonly meter: ScanMeter,
  ) {
    this.size = program.ops.length;
    this.current = new ThreadList(this.size);
    this.next = new ThreadList(this.size);
    this.seen = new Uint32Array(this.size);
    this.stack = new Int32Array(this.size * 2 + 2);
    this.openStart = new Int32Array(program.kinds.length).fill(-1);
    this.openEnd = new Int32Array(program.kinds.length).fill(-1);
  }

  run(): Finding[] {
    const { a, sets, first } = this.program;
    const text = this.text;
    this.generation += 1;
    this.current.count = 0;
    for (let pos = this.options.from; pos < text.length; pos += 1) {
      const code = text.charCodeAt(pos);
      // Seeded after the live threads: a thread started here loses every instruction to an
      // earlier one. Not seeded where no match can begin (the program's first characters).
      if (charSetHas(first, code)) this.add(this.current, 0, pos, pos);
      this.generation += 1;
      if (this.current.count === 0) continue;
      this.next.count = 0;
      const { pcs, starts } = this.current;
      for (let t = 0; t < this.current.count; t += 1) {
        const pc = pcs[t] as number;
        this.meter.steps += 1;
        if (charSetHas(sets[a[pc] as number] as CompiledCharSet, code)) this.add(this.next, pc + 1, starts[t] as number, pos + 1);
      }
      [this.current, this.next] = [this.next, this.current];
    }
    for (let k = 0; k < this.openStart.length; k += 1) this.close(k);
    return this.found;
  }

  /** Follows jumps, splits and assertions from pc at pos; Char instructions join the list. */
  private add(list: ThreadList, pc: number, start: number, pos: number): void {
    const { ops, a, b } = this.program;
    let top = 0;
    this.stack[top++] = pc;
    while (top > 0) {
      const at = this.stack[--top] as number;
      if (this.seen[at] === this.generation) continue;
      this.seen[at] = this.generation;
      this.meter.steps += 1;
      switch (ops[at]) {
        case Op.Char:
          list.pcs[list.count] = at;
          list.starts[list.count] = start;
          list.count += 1;
          break;
        case Op.Split:
          this.stack[top++] = b[at] as number;
          this.stack[top++] = a[at] as number;
          break;
        case Op.Jump:
          this.stack[top++] = a[at] as number;
          break;
        case Op.Assert:
          if (this.holds(a[at] as number, pos)) this.stack[top++] = at + 1;
          break;
        case Op.Match:
          this.record(a[at] as number, start, pos);
          break;
      }
    }
  }

  private holds(assertion: number, pos: number): boolean {
    switch (assertion) {
      case 0:
        return pos === 0 && this.options.atStart;
      case 1:
        return pos === this.text.length && this.options.atEnd;
      default: {
        const boundary = isWordAt(this.text, pos - 1) !== isWordAt(this.text, pos);
        return assertion === 2 ? boundary : !boundary;
      }
    }
  }

  private record(pattern: number, start: number, end: number): void {
    if (end === start) return;
    const openEnd = this.openEnd[pattern] as number;
    if (openEnd > start) {
      this.openEnd[pattern] = end;
      this.openStart[pattern] = Math.min(this.openStart[pattern] as number, start);
      return;
    }
    this.close(pattern);
    this.openStart[pattern] = start;
    this.openEnd[pattern] = end;
  }

  private close(pattern: number): void {
    const start = this.openStart[pattern] as number;
    if (start < 0) return;
    this.found.push({ kind: this.program.kinds[pattern] as string, start, end: this.openEnd[pattern] as number });
    this.openStart[pattern] = -1;
    this.openEnd[pattern] = -1;
  }
}

class ThreadList {
  pcs: Int32Array;
  starts: Int32Array;
  count = 0;

  constructor(size: number) {
    this.pcs = new Int32Array(size);
    this.starts = new Int32Array(size);
  }
}

function isWordAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const code = text.charCodeAt(i);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}
