import { isRecord } from '../http-io';
import { verifyThinkingSignature } from '../signatures';
import type { GeminiContent, GeminiPart, GeminiRequest } from './gemini-request';

/** Google documents these as dummy signatures that skip validation (for histories built elsewhere). */
const SKIP_SIGNATURES = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

export const COUNT_MISMATCH =
  'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
export const RESPONSE_WITHOUT_CALL = 'Please ensure that function response turn comes immediately after a function call turn.';
export const CORRUPTED_SIGNATURE = 'Corrupted thought signature.';

function calls(content: GeminiContent | undefined): string[] {
  if (!content || content.role !== 'model') return [];
  return content.parts.flatMap((part) => (part.functionCall ? [part.functionCall.name] : []));
}

function responses(content: GeminiContent | undefined): string[] {
  if (!content || content.role !== 'user') return [];
  return content.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse.name] : []));
}

/**
 * A signature verifies against what the simulator signed: a functionCall part's name, or a text
 * part's own text, or all visible text of its content joined (streamed text arrives in pieces
 * and the signature covers the whole reply, whether the client merges the pieces or not).
 */
function signatureHolds(part: GeminiPart, content: GeminiContent): boolean {
  const signature = part.thoughtSignature;
  if (signature === undefined || SKIP_SIGNATURES.has(signature)) return true;
  if (part.functionCall) return verifyThinkingSignature('gemini', part.functionCall.name, signature);
  const joined = content.parts.flatMap((p) => (p.text === undefined || p.thought ? [] : [p.text])).join('');
  return [part.text ?? '', joined].some((text) => verifyThinkingSignature('gemini', text, signature));
}

function partRules(contents: readonly GeminiContent[]): string | undefined {
  for (const [i, content] of contents.entries()) {
    if (content.role !== 'user' && content.role !== 'model') return 'Please use a valid role: user, model.';
    for (const [j, part] of content.parts.entries()) {
      const path = `contents[${i}].parts[${j}]`;
      const args = part.functionCall?.args;
      if (part.functionCall && args !== undefined && args !== null && !isRecord(args)) {
        return `Invalid value at '${path}.function_call.args' (type.googleapis.com/google.protobuf.Struct), ${JSON.stringify(args)}`;
      }
      const response = part.functionResponse?.response;
      if (part.functionResponse && response !== undefined && response !== null && !isRecord(response)) {
        return `Invalid value at '${path}.function_response.response' (type.googleapis.com/google.protobuf.Struct), ${JSON.stringify(response)}`;
      }
      if (!signatureHolds(part, content)) return CORRUPTED_SIGNATURE;
    }
  }
  return undefined;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((name, index) => name === right[index]);
}

/** A function call turn is answered by the next content, one functionResponse per functionCall, by name. */
function turnRules(contents: readonly GeminiContent[]): string | undefined {
  for (const [i, content] of contents.entries()) {
    const answered = responses(content);
    if (answered.length > 0 && calls(contents[i - 1]).length === 0) return RESPONSE_WITHOUT_CALL;
    const called = calls(content);
    const next = contents[i + 1];
    if (called.length === 0 || !next) continue;
    const replies = responses(next);
    if (replies.length !== called.length) return COUNT_MISMATCH;
    if (!sameNames(called, replies)) {
      return `Please ensure that the function response parts match the function call parts of the function call turn: called ${called.join(', ')} but got responses for ${replies.join(', ')}.`;
    }
  }
  return undefined;
}

/**
 * The checks the real generateContent API makes beyond field types, so a gateway's translation
 * bugs surface as the same 400s. Returns the first violation's message, or undefined.
 */
export function validateGeminiRequest(request: GeminiRequest, model = ''): string | undefined {
  return partRules(request.contents) ?? turnRules(request.contents) ?? signatureRules(request.contents, model);
}

/**
 * Gemini 3 and later refuse the current turn's function calls without a signature: in each model
 * step since the user last wrote, the first functionCall part must carry one (Google's dummy counts).
 */
function signatureRules(contents: readonly GeminiContent[], model: string): string | undefined {
  const major = /^(?:models\/)?gemini-(\d+)/.exec(model)?.[1];
  if (major === undefined || Number(major) < 3) return undefined;
  const lastUserText = contents.reduce((at, c, i) => (c.role === 'user' && c.parts.some((p) => !p.functionResponse) ? i : at), -1);
  for (const [i, content] of contents.entries()) {
    if (i <= lastUserText || content.role !== 'model') continue;
    const j = content.parts.findIndex((p) => p.functionCall);
    const first = content.parts[j];
    if (first?.functionCall && first.thoughtSignature === undefined) {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall.name}\` , position ${j + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
    }
  }
  return undefined;
}
