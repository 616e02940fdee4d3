/**
 * The deepest a request body may nest, counting objects and arrays (`{}` is 1, `{"a":[]}` is 2).
 * Real requests stay far below it: a chat body is 4-6 levels to a content part, and the deepest
 * tool schemas agents send are a few dozen more. Above it, every recursive walk of a request
 * (the Gemini member normaliser, the schema converters, the token estimate, JSON.stringify on the
 * way upstream) stays thousands of frames from the stack limit. The number is a precedent, not a
 * standard: serde_json's recursion budget (so most Rust servers') is 128; .NET's default is 64,
 * Jackson's 1,000, Go's 10,000.
 */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether the JSON text in `bytes` nests deeper than `limit`, in one pass over the bytes, without
 * recursion and before anything is parsed: brackets are counted outside strings, and a string is
 * skipped at once by a native search for its closing quote (a quote after an odd run of
 * backslashes is escaped). UTF-8 continuation bytes are never ASCII, so bytes are enough. Exact for
 * valid JSON; on invalid text either answer is fine, as JSON.parse refuses it next.
 */
export function nestsDeeperThan(bytes: Buffer, limit: number): boolean {
  // Nesting past `limit` takes at least limit + 1 opening and as many closing brackets.
  if (bytes.length < 2 * (limit + 1)) return false;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = closingQuote(bytes, i);
      if (i < 0) return false;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * The index of the quote closing the string opened at `open`, or -1 when the text ends first. Each
 * backward run over backslashes stays after the previous quote found, so the scan stays linear.
 */
function closingQuote(bytes: Buffer, open: number): number {
  let at = bytes.indexOf(QUOTE, open + 1);
  while (at >= 0) {
    let before = at - 1;
    while (bytes[before] === BACKSLASH) before--;
    if ((at - 1 - before) % 2 === 0) return at;
    at = bytes.indexOf(QUOTE, at + 1);
  }
  return -1;
}
