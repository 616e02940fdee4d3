import { GatewayError } from '@rosetta/canonical';
import {
  at, checkArray, checkInteger, checkNested, checkNumber, checkObject, checkOneOf, checkRoutingFields, checkString, checkStringArray, invalid, required, isRecord, type JsonObject,
} from '@rosetta/protocols/common';

function checkContent(content: JsonObject, path: string): void {
  checkOneOf(content['role'], at(path, 'role'), ['user', 'model', 'function'], "must be 'user' or 'model'");
  const parts = required(content, 'parts', path);
  if (!Array.isArray(parts) || !parts.every(isRecord)) invalid(at(path, 'parts'), 'must be an array of part objects');
}

/** Dialect C request, after snake_case members were normalised to camelCase. */
export function validateGeminiGenerateContentRequest(body: JsonObject): JsonObject {
  checkRoutingFields(body);
  checkArray(required(body, 'contents'), 'contents', (c, p) => checkNested(c, p, checkContent));
  checkNested(body['systemInstruction'], 'systemInstruction', checkContent);
  checkNested(body['generationConfig'], 'generationConfig', (config, p) => {
    checkNumber(config['temperature'], at(p, 'temperature'), 0, 2);
    checkNumber(config['topP'], at(p, 'topP'), 0, 1);
    checkNumber(config['topK'], at(p, 'topK'), 0);
    checkInteger(config['maxOutputTokens'], at(p, 'maxOutputTokens'), 1);
    checkInteger(config['candidateCount'], at(p, 'candidateCount'), 1);
    checkStringArray(config['stopSequences'], at(p, 'stopSequences'));
    checkString(config['responseMimeType'], at(p, 'responseMimeType'));
    checkObject(config['thinkingConfig'], at(p, 'thinkingConfig'));
  });
  checkArray(body['tools'], 'tools');
  checkObject(body['toolConfig'], 'toolConfig');
  checkArray(body['safetySettings'], 'safetySettings');
  return body;
}

const ALT_VALUES = ['json', 'sse'];

/**
 * The `alt` query parameter: `sse` frames streamGenerateContent as server-sent events; absent or
 * `json`, one JSON array streamed element by element. Anything else (`SSE`, `proto`, `alt`
 * repeated) is refused rather than guessed at: a client expecting SSE must not get an array.
 * True when the caller asked for SSE.
 */
export function validateGeminiAlt(alt: unknown): boolean {
  if (alt === undefined) return false;
  if (typeof alt !== 'string' || !ALT_VALUES.includes(alt)) {
    const got = Array.isArray(alt) ? `given ${alt.length} times` : `got '${String(alt)}'`;
    throw GatewayError.invalidRequest(`Invalid query parameter 'alt': must be 'sse' or 'json' (or absent), ${got}`, 'alt');
  }
  return alt === 'sse';
}
