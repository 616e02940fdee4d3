import { escapeJsonText, JsonTextLexer } from './json-text-lexer';

type Part =
  | { kind: 'structure'; raw: string }
  | { kind: 'string'; decoded: string; raw: string; closed: boolean }
  | { kind: 'scalar'; raw: string };

/** The text a JSON text holds, piece by piece, and the JSON text again with pieces replaced. */
export interface JsonTextPieces {
  /** Each non-empty string (keys too), decoded, and each scalar, in order. */
  texts: string[];
  /**
   * The JSON text with piece i replaced by `texts[i]` where they differ, always valid JSON where
   * the original was: a changed string is written escaped in its quotes; a changed scalar becomes
   * a string (`4111111111111111` → `"[REDACTED:card]"`). Unchanged pieces keep their bytes.
   */
  rebuild(texts: readonly string[]): string;
}

/**
 * A tool call's arguments as the pieces guardrails read (docs/guide/guardrails.md, "What is
 * scanned"): what a string says (`\u0040` is an `@`), not how JSON wrote it, and the text between
 * strings left out, so a redaction can never break the JSON around it.
 */
export function jsonTextPieces(json: string): JsonTextPieces {
  const parts: Part[] = [];
  let open: Extract<Part, { kind: 'string' }> | undefined;
  const lexer = new JsonTextLexer({
    structure: (raw) => parts.push({ kind: 'structure', raw }),
    open: () => parts.push((open = { kind: 'string', decoded: '', raw: '', closed: false })),
    chars: (decoded, raw) => {
      open!.decoded += decoded;
      open!.raw += raw;
    },
    close: () => {
      open!.closed = true;
      open = undefined;
    },
    scalar: (raw) => parts.push({ kind: 'scalar', raw }),
  });
  lexer.push(json);
  lexer.end();
  const pieces = parts.filter((p) => (p.kind === 'string' ? p.decoded !== '' : p.kind === 'scalar'));
  return {
    texts: pieces.map((p) => (p.kind === 'string' ? p.decoded : p.raw)),
    rebuild: (texts) => {
      let at = 0;
      return parts
        .map((part) => {
          if (part.kind === 'structure') return part.raw;
          if (part.kind === 'string' && part.decoded === '') return part.closed ? '""' : '"';
          const text = texts[at++];
          if (part.kind === 'scalar') return text === undefined || text === part.raw ? part.raw : JSON.stringify(text);
          const content = text === undefined || text === part.decoded ? part.raw : escapeJsonText(text);
          return `"${content}${part.closed ? '"' : ''}`;
        })
        .join('');
    },
  };
}
