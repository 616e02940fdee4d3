/**
 * Upstream streamed JSON array (`streamGenerateContent` without `alt`) → each element, yielded
 * as soon as its closing brace arrives. Google pretty-prints the elements across lines and
 * splits the body anywhere, so this scans characters, tracking nesting depth and whether it is
 * inside a string (where braces and escaped quotes do not count), as Google's python-api-core
 * does. Only the current element is held in memory.
 */
import { GatewayError } from '@rosetta/canonical';

export async function* parseGeminiJsonArray(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const scanner = new JsonArrayScanner();
  for await (const piece of source) {
    yield* scanner.feed(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
    if (scanner.closed) return;
  }
  yield* scanner.feed(decoder.decode());
  // A body cut off mid-element ends here: the stream decoder reports it as cut.
}

class JsonArrayScanner {
  /** Whether the top-level `[` has been seen. */
  private opened = false;
  closed = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Text of the element being read, from earlier pieces. */
  private element = '';

  feed(text: string): unknown[] {
    const items: unknown[] = [];
    let start = this.depth > 0 ? 0 : -1;
    for (let i = 0; i < text.length && !this.closed; i++) {
      const char = text[i] ?? '';
      if (this.depth > 0) {
        if (this.scanInside(char)) {
          items.push(parseElement(this.element + text.slice(start, i + 1)));
          this.element = '';
          start = -1;
        }
      } else if (this.scanBetween(char)) {
        start = i;
      }
    }
    if (start >= 0) this.element += text.slice(start);
    return items;
  }

  /** One character inside an element; true when it completes the element. */
  private scanInside(char: string): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (char === '\\') this.escaped = true;
      else if (char === '"') this.inString = false;
      return false;
    }
    if (char === '"') this.inString = true;
    else if (char === '{' || char === '[') this.depth++;
    else if (char === '}' || char === ']') return --this.depth === 0;
    return false;
  }

  /** One character between elements; true when it opens one. */
  private scanBetween(char: string): boolean {
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') return false;
    if (!this.opened) {
      if (char !== '[') throw malformed('expected a JSON array');
      this.opened = true;
      return false;
    }
    if (char === ',') return false;
    if (char === ']') {
      this.closed = true;
      return false;
    }
    if (char !== '{') throw malformed(`unexpected '${char}' between array elements`);
    this.depth = 1;
    return true;
  }
}

function parseElement(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformed('malformed array element');
  }
}

function malformed(detail: string): GatewayError {
  return new GatewayError('upstream_error', `Upstream service error: malformed stream (${detail})`, { status: 502, retryable: true });
}
