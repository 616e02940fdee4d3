import type { AssistantContentPart, CanonicalRequest, CanonicalResponse, ContentPart, EmbeddingRequest, Message, ToolResultContent } from '@rosetta/canonical';
import { jsonTextPieces } from '@rosetta/guardrails';

/**
 * Where guardrails look (docs/guide/guardrails.md, "What is scanned"): the text an upstream reads
 * or a client is sent, one piece per part, in conversation order. A rewrite returns the new text
 * of a piece, or undefined to keep it; the request is copied only where something changed.
 *
 * Input: system text, user and assistant text parts, tool results' text, and inline text
 * documents. Not: images, audio, files by reference, tool-call arguments and thinking (the model's
 * own, signed or exact JSON that must go back unchanged).
 * Output: the answer's text parts, its thinking, its refusals and its tool calls' arguments (answerTexts).
 */
export type Rewrite = (text: string) => string | undefined;

export function requestTexts(request: CanonicalRequest): string[] {
  const texts: string[] = [];
  rewriteRequest(request, (text) => {
    texts.push(text);
    return undefined;
  });
  return texts;
}

/** The request with its pieces replaced by `texts` (in requestTexts' order) where they differ. */
export function withRequestTexts(request: CanonicalRequest, texts: readonly string[]): CanonicalRequest {
  let at = 0;
  return rewriteRequest(request, (text) => {
    const next = texts[at++];
    return next !== undefined && next !== text ? next : undefined;
  });
}

function rewriteRequest(request: CanonicalRequest, rewrite: Rewrite): CanonicalRequest {
  let changed = false;
  const messages = request.messages.map((message) => {
    const content = rewriteParts(message.content as ContentPart[], rewrite);
    if (content === message.content) return message;
    changed = true;
    return { ...message, content } as Message;
  });
  // The client's own body (the same-protocol fast path) would carry the original text upstream.
  return changed ? { ...request, messages, passthrough: undefined } : request;
}

function rewriteParts<P extends ContentPart | ToolResultContent>(parts: P[], rewrite: Rewrite): P[] {
  let out: P[] | undefined;
  parts.forEach((part, i) => {
    const next = rewritePart(part, rewrite);
    if (next === part) return;
    out ??= parts.slice();
    out[i] = next;
  });
  return out ?? parts;
}

function rewritePart<P extends ContentPart | ToolResultContent>(part: P, rewrite: Rewrite): P {
  const piece: ContentPart | ToolResultContent = part;
  switch (piece.type) {
    case 'text': {
      const text = rewrite(piece.text);
      return text === undefined ? part : ({ ...piece, text } as P);
    }
    case 'document': {
      if (piece.source.kind !== 'text') return part;
      const data = rewrite(piece.source.data);
      return data === undefined ? part : ({ ...piece, source: { ...piece.source, data } } as P);
    }
    case 'tool_result': {
      const content = rewriteParts(piece.content, rewrite);
      return content === piece.content ? part : ({ ...piece, content } as P);
    }
    default:
      return part;
  }
}

/**
 * The answer's pieces, in order: each text, thinking and refusal part, and each tool call's
 * arguments as their strings (decoded) and scalars (jsonTextPieces) — never the JSON around them.
 */
export function answerTexts(response: CanonicalResponse): string[] {
  return response.content.flatMap((part) => {
    if (part.type === 'text' || part.type === 'thinking' || part.type === 'refusal') return [part.text];
    return part.type === 'tool_call' ? jsonTextPieces(part.arguments).texts : [];
  });
}

/**
 * The answer with its pieces replaced by `texts` (in answerTexts' order) where they differ. A
 * tool call's arguments stay valid JSON (jsonTextPieces.rebuild). A thinking part whose text
 * changed loses its signature: it vouches for the text the model wrote, and an upstream refuses
 * edited thinking with it (sent back unsigned, the encoders leave it out where signed thinking is
 * required).
 */
export function withAnswerTexts(response: CanonicalResponse, texts: readonly string[]): CanonicalResponse {
  let at = 0;
  const content = response.content.map((part): AssistantContentPart => {
    if (part.type === 'text' || part.type === 'refusal') return { ...part, text: texts[at++] ?? part.text };
    if (part.type === 'thinking') {
      const text = texts[at++] ?? part.text;
      if (text === part.text) return part;
      const { signature: _signature, ...unsigned } = part;
      return { ...unsigned, text };
    }
    if (part.type !== 'tool_call') return part;
    const pieces = jsonTextPieces(part.arguments);
    const next = texts.slice(at, (at += pieces.texts.length));
    return next.every((text, i) => text === pieces.texts[i]) ? part : { ...part, arguments: pieces.rebuild(next) };
  });
  return { ...response, content };
}

export function embeddingTexts(request: EmbeddingRequest): string[] {
  return request.inputs.flatMap((input) => (input.type === 'text' ? [input.text] : []));
}

export function withEmbeddingTexts(request: EmbeddingRequest, texts: readonly string[]): EmbeddingRequest {
  let at = 0;
  const inputs = request.inputs.map((input) => (input.type === 'text' ? { ...input, text: texts[at++] ?? input.text } : input));
  return { ...request, inputs, passthrough: undefined };
}
