/**
 * What a JSON text (a tool call's arguments) is made of, as it streams: the text outside strings
 * (punctuation and blanks), each string's characters — decoded, and as written — and each
 * scalar (a number, `true`, `false`, `null`, or anything else outside a string). Told in order;
 * concatenating `structure`, the quotes of `open` and `close`, every `raw` and every scalar gives
 * back the text as it was written, byte for byte.
 */
export interface JsonTextSink {
  structure(raw: string): void;
  /** A string opens (its quote is not passed). */
  open(): void;
  /** Characters of the open string: decoded, and as written (an escape is never split). */
  chars(decoded: string, raw: string): void;
  /** The open string closes (its quote is not passed). */
  close(): void;
  /** A whole scalar, once the character after it (or the end) arrives. */
  scalar(raw: string): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function isStructure(code: number): boolean {
  // Blanks, and { } [ ] : ,
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x7b || code === 0x7d || code === 0x5b || code === 0x5d || code === 0x3a || code === 0x2c;
}

function isHex(char: string): boolean {
  return /^[0-9a-fA-F]$/.test(char);
}

/**
 * A lexer over JSON text that arrives in pieces: linear, one pass, keeping nothing but an
 * unfinished scalar or escape. It does not validate: text that is not JSON (a model's arguments
 * cut short, say) is lexed as far as it goes, and an escape that is not one is passed as written.
 */
export class JsonTextLexer {
  private state: 'out' | 'string' | 'scalar' = 'out';
  private scalar = '';
  /** An escape begun and not finished: a backslash, maybe `u` and some hex digits. */
  private escape = '';

  constructor(private readonly sink: JsonTextSink) {}

  push(text: string): void {
    let at = 0;
    while (at < text.length) {
      if (this.state === 'out') at = this.outside(text, at);
      else if (this.state === 'scalar') at = this.inScalar(text, at);
      else at = this.escape ? this.inEscape(text, at) : this.inString(text, at);
    }
  }

  /** The end of the text: an unfinished scalar is told; an unfinished escape as written. */
  end(): void {
    if (this.state === 'scalar') this.sink.scalar(this.scalar);
    if (this.escape) this.sink.chars(this.escape, this.escape);
    this.scalar = '';
    this.escape = '';
    this.state = 'out';
  }

  private outside(text: string, from: number): number {
    let at = from;
    while (at < text.length && isStructure(text.charCodeAt(at))) at++;
    if (at > from) this.sink.structure(text.slice(from, at));
    if (at === text.length) return at;
    if (text.charCodeAt(at) === QUOTE) {
      this.state = 'string';
      this.sink.open();
      return at + 1;
    }
    this.state = 'scalar';
    return at;
  }

  private inScalar(text: string, from: number): number {
    let at = from;
    while (at < text.length && !isStructure(text.charCodeAt(at)) && text.charCodeAt(at) !== QUOTE) at++;
    this.scalar += text.slice(from, at);
    if (at < text.length) {
      this.sink.scalar(this.scalar);
      this.scalar = '';
      this.state = 'out';
    }
    return at;
  }

  private inString(text: string, from: number): number {
    let at = from;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (code === QUOTE || code === BACKSLASH) break;
      at++;
    }
    if (at > from) this.sink.chars(text.slice(from, at), text.slice(from, at));
    if (at === text.length) return at;
    if (text.charCodeAt(at) === QUOTE) {
      this.state = 'out';
      this.sink.close();
    } else {
      this.escape = '\\';
    }
    return at + 1;
  }

  /** One character of an escape; a `\u` that meets a character that is no hex digit ends there, as written. */
  private inEscape(text: string, at: number): number {
    const char = text[at]!;
    if (this.escape.length === 1) {
      this.escape += char;
      if (char !== 'u') this.told(SIMPLE_ESCAPES[char] ?? this.escape);
      return at + 1;
    }
    if (!isHex(char)) {
      this.told(this.escape);
      return at;
    }
    this.escape += char;
    if (this.escape.length === 6) this.told(String.fromCharCode(parseInt(this.escape.slice(2), 16)));
    return at + 1;
  }

  private told(decoded: string): void {
    this.sink.chars(decoded, this.escape);
    this.escape = '';
  }
}

/** A string's characters as JSON string content (without the quotes): what JSON.stringify writes. */
export function escapeJsonText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
