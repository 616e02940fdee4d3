import { type CompiledGuardrails } from '../compile-guardrails';
import { type GuardrailBlock, type GuardrailVerdict } from '../guardrail-engine';
import { StreamingRedactor } from '../streaming-redactor';
import { VerdictUnion } from '../verdict-union';
import { escapeJsonText, JsonTextLexer } from './json-text-lexer';

/** What a streamed piece of output may send now: safe text (possibly empty), or the block that stops it. */
export interface OutputStep {
  text: string;
  blocked?: GuardrailBlock;
}

/**
 * Output checks over a tool call's arguments as they stream (JSON text). Each string (keys too) is
 * scanned, decoded, by a StreamingRedactor of its own, which holds back what the checks need and
 * no more; each scalar is scanned whole once it ends. The text between them (punctuation, blanks)
 * goes out as it comes, in order. What goes out is always the JSON that came in, but for what was
 * redacted: a string keeps its bytes until a redaction, after which it is written escaped (the same
 * value, `[REDACTED:<kind>]` in place of the match); a redacted scalar becomes a string. So the
 * client never gets invalid JSON from valid JSON, and a match cannot span two strings.
 */
export class ToolArgumentsRedactor {
  private readonly lexer: JsonTextLexer;
  private value: StringRedactor | undefined;
  private out = '';
  private blocked: GuardrailBlock | undefined;
  private readonly found = new VerdictUnion();

  constructor(private readonly guardrails: CompiledGuardrails) {
    this.lexer = new JsonTextLexer({
      structure: (raw) => this.send(raw),
      open: () => {
        this.send('"');
        this.value = new StringRedactor(new StreamingRedactor(guardrails));
      },
      chars: (decoded, raw) => this.step(this.value?.push(decoded, raw)),
      close: () => {
        this.closeValue();
        this.send('"');
      },
      scalar: (raw) => this.scalar(raw),
    });
  }

  push(chunk: string): OutputStep {
    if (!this.blocked) this.lexer.push(chunk);
    return this.take();
  }

  /** The end of the arguments: a string left open (arguments cut short) sends its rest, unclosed. */
  flush(): OutputStep {
    if (!this.blocked) {
      this.lexer.end();
      this.closeValue();
    }
    return this.take();
  }

  /** What the checks found in the arguments so far, one verdict per check. */
  verdicts(): GuardrailVerdict[] {
    return this.found.with(this.value?.verdicts() ?? []);
  }

  private take(): OutputStep {
    const text = this.out;
    this.out = '';
    return this.blocked ? { text: '', blocked: this.blocked } : { text };
  }

  private send(text: string): void {
    if (!this.blocked) this.out += text;
  }

  private step(step: OutputStep | undefined): void {
    if (!step || this.blocked) return;
    if (step.blocked) this.block(step.blocked);
    else this.out += step.text;
  }

  /** The check that stopped the arguments (a string's own chunk count means nothing here). */
  private block({ check, index }: GuardrailBlock): void {
    this.blocked = { check, index };
  }

  private closeValue(): void {
    const value = this.value;
    if (!value) return;
    this.value = undefined;
    this.step(value.end());
    this.found.add(value.verdicts());
  }

  /** A number or literal, scanned whole: redacted, it is written as a string (valid JSON either way). */
  private scalar(raw: string): void {
    if (this.blocked) return;
    const redactor = new StreamingRedactor(this.guardrails);
    const first = redactor.push(raw);
    const last = first.blocked ? first : redactor.flush();
    this.found.add(redactor.verdicts());
    if (last.blocked) {
      this.block(last.blocked);
      return;
    }
    const text = first.text + last.text;
    this.out += text === raw ? raw : JSON.stringify(text);
  }
}

/**
 * One JSON string through a StreamingRedactor, which reads it decoded. Until the redactor changes
 * something, what it sends is a prefix of what it was given, and the string's own bytes for those
 * characters go out (an escape is one character decoded); from its first redaction on, the rest is
 * written escaped.
 */
class StringRedactor {
  /** Characters given to the redactor and not sent yet, decoded, and as written (runs). */
  private pending = '';
  private runs: Array<{ decoded: number; raw: string }> = [];
  /** The first run not sent (runs before it are dropped in bulk: no shifting per run). */
  private head = 0;
  private rewritten = false;

  constructor(private readonly redactor: StreamingRedactor) {}

  push(decoded: string, raw: string): OutputStep {
    if (!this.rewritten) {
      this.pending += decoded;
      const last = this.runs.length > this.head ? this.runs[this.runs.length - 1] : undefined;
      // Plain characters (decoded as written) join one run, so it can be cut anywhere.
      if (decoded === raw && last && last.decoded === last.raw.length) {
        last.raw += raw;
        last.decoded += decoded.length;
      } else this.runs.push({ decoded: decoded.length, raw });
    }
    return this.written(this.redactor.push(decoded));
  }

  end(): OutputStep {
    return this.written(this.redactor.flush());
  }

  verdicts(): GuardrailVerdict[] {
    return this.redactor.verdicts();
  }

  private written(step: OutputStep): OutputStep {
    if (step.blocked || step.text === '') return step;
    if (!this.rewritten && this.pending.startsWith(step.text)) {
      this.pending = this.pending.slice(step.text.length);
      return { text: this.rawOf(step.text.length) };
    }
    this.rewritten = true;
    this.pending = '';
    this.runs = [];
    this.head = 0;
    return { text: escapeJsonText(step.text) };
  }

  /** The bytes of the next `count` decoded characters. */
  private rawOf(count: number): string {
    let left = count;
    let raw = '';
    while (left > 0) {
      const run = this.runs[this.head]!;
      if (run.decoded <= left) {
        raw += run.raw;
        left -= run.decoded;
        this.head++;
      } else {
        // Only a plain run is longer than one character: cut it.
        raw += run.raw.slice(0, left);
        run.raw = run.raw.slice(left);
        run.decoded -= left;
        left = 0;
      }
    }
    if (this.head > 64 && this.head * 2 > this.runs.length) {
      this.runs = this.runs.slice(this.head);
      this.head = 0;
    }
    return raw;
  }
}
