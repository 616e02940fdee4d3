/**
 * Decoding of the Python literals RouterBench stores in its CSVs: the prompt and every model
 * response are written as `repr(list_of_str)`, e.g. `['Line one\nIt\'s']` or `["a \"b\""]`.
 */

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** Decodes one escape starting after the backslash at `i`; returns the text and the next index. */
function decodeEscape(src: string, i: number): [string, number] {
  const c = src[i] ?? '';
  if (c === '\n') return ['', i + 1];
  const hexLen = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
  if (hexLen > 0) {
    const hex = src.slice(i + 1, i + 1 + hexLen);
    if (/^[0-9a-fA-F]+$/.test(hex) && hex.length === hexLen) return [String.fromCodePoint(parseInt(hex, 16)), i + 1 + hexLen];
    return ['\\' + c, i + 1];
  }
  const octal = /^[0-7]{1,3}/.exec(src.slice(i, i + 3));
  if (octal) return [String.fromCharCode(parseInt(octal[0], 8)), i + octal[0].length];
  if (c in SIMPLE_ESCAPES) return [SIMPLE_ESCAPES[c] as string, i + 1];
  // Unknown escapes keep their backslash, as in Python.
  return ['\\' + c, i + 1];
}

/** Reads a quoted Python string starting at `i` (which must be a quote, optionally prefixed). */
function readString(src: string, start: number): [string, number] | null {
  let i = start;
  let raw = false;
  while (i < src.length && /[rRuUbB]/.test(src[i] as string)) {
    if (/[rR]/.test(src[i] as string)) raw = true;
    i++;
  }
  const quote = src[i];
  if (quote !== "'" && quote !== '"') return null;
  const triple = src.startsWith(quote.repeat(3), i);
  const delim = triple ? quote.repeat(3) : quote;
  i += delim.length;
  let out = '';
  while (i < src.length) {
    if (src.startsWith(delim, i)) return [out, i + delim.length];
    const c = src[i] as string;
    if (c === '\\') {
      if (raw) {
        out += c + (src[i + 1] ?? '');
        i += 2;
        continue;
      }
      const [text, next] = decodeEscape(src, i + 1);
      out += text;
      i = next;
      continue;
    }
    out += c;
    i++;
  }
  return null;
}

/**
 * Parses a Python list of string literals (`['a', "b"]`). Returns null when the text is not one
 * (callers then use the text as it is).
 */
export function parsePythonStringList(src: string): string[] | null {
  const text = src.trim();
  if (!text.startsWith('[') || !text.endsWith(']')) return null;
  const items: string[] = [];
  let i = 1;
  const skip = (): void => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  skip();
  while (i < text.length - 1) {
    const read = readString(text, i);
    if (!read) return null;
    items.push(read[0]);
    i = read[1];
    skip();
    if (text[i] === ',') {
      i++;
      skip();
    } else if (i !== text.length - 1) return null;
  }
  return items;
}

/**
 * The text of a RouterBench prompt or response cell: the list's strings (repeated identical items
 * collapse to one, others are joined by a blank line), or the cell as it is when it is not a list.
 */
export function decodePromptLiteral(cell: string): string {
  const items = parsePythonStringList(cell);
  if (!items) return cell;
  const distinct = items.filter((s, idx) => idx === 0 || s !== items[idx - 1]);
  return distinct.join('\n\n');
}
