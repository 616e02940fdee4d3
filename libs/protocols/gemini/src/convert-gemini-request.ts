/**
 * Dialect-C request body (already through normalizeGeminiRequest, so camelCase) → canonical
 * request, checked and converted in one pass: every documented field is checked as it is read, and
 * the first problem is a 400 naming its path. The model comes from the URL path and streaming from
 * the operation called, so both are given by the caller.
 *
 * The SDK's config object documents `systemInstruction`, `tools`, `toolConfig` and
 * `safetySettings` beside the generation parameters; a client that sends them inside
 * `generationConfig` is read the same way (the fast path moves them to the top for Google).
 */
import type { CanonicalRequest, Converted, ResponseFormat, ThinkingConfig, TranslationWarning } from '@rosetta/canonical';
import {
  compact,
  convertRoutingFields,
  invalidField,
  isAbsent,
  optionalBoolean,
  optionalEndUser,
  optionalNumber,
  optionalRecord,
  optionalString,
  optionalStringArray,
  requireRecord,
  type JsonObject,
  type NumberRange,
} from '@rosetta/protocols/common';
import { convertGeminiContents, convertGeminiSystemInstruction } from './convert-gemini-contents';
import { convertGeminiSchema } from './convert-gemini-schema';
import { convertGeminiTools } from './convert-gemini-tools';

const CONFIG = 'generationConfig';
const TEMPERATURE: NumberRange = { min: 0, max: 2 };
const UNIT: NumberRange = { min: 0, max: 1 };
const NON_NEGATIVE: NumberRange = { min: 0 };
const POSITIVE_INTEGER: NumberRange = { min: 1, integer: true };

export function convertGeminiRequest({
  body,
  model,
  stream = false,
}: {
  body: Record<string, unknown>;
  model: string;
  stream?: boolean;
}): Converted<CanonicalRequest> {
  const warnings: TranslationWarning[] = [];
  const routing = convertRoutingFields({ body });
  const messages = convertGeminiContents({ contents: body['contents'], warnings });
  const config = optionalRecord(body, CONFIG) ?? {};
  const fromEither = (key: string): { value: unknown; path: string } =>
    isAbsent(body[key]) ? { value: config[key], path: `${CONFIG}.${key}` } : { value: body[key], path: key };
  const system = fromEither('systemInstruction');
  // At the top level it is a Content, as on Google's wire; in the SDK's config object also a string.
  if (system.path === 'systemInstruction') requireRecord(system.value, 'systemInstruction');
  const systemMessage = convertGeminiSystemInstruction(system.value, system.path);
  const sampling = convertGenerationConfig(config);
  const tools = convertGeminiTools({ tools: fromEither('tools').value, toolConfig: fromEither('toolConfig').value });
  warnings.push(...tools.warnings);
  const safety = fromEither('safetySettings');
  if (!isAbsent(body['safetySettings']) && !Array.isArray(body['safetySettings'])) throw invalidField('safetySettings', 'must be an array');
  if (Array.isArray(safety.value) && safety.value.length > 0) {
    warnings.push({ feature: safety.path, message: 'Safety settings apply only on a Gemini upstream.' });
  }
  const request: CanonicalRequest = compact({
    model,
    messages: systemMessage ? [systemMessage, ...messages] : messages,
    ...tools.value,
    ...sampling,
    responseFormat: convertResponseFormat(config, warnings),
    thinking: convertThinking(config),
    user: convertLabels(body, config),
    stream,
    routing,
    passthrough: { protocol: 'gemini', body },
  });
  return { value: request, warnings };
}

/**
 * `labels.user` is the end user (ARCHITECTURE §9). Labels are string values on Google's wire; the
 * SDK's config object carries them too (the fast path moves them to the top for Google).
 */
function convertLabels(body: JsonObject, config: JsonObject): string | undefined {
  const top = !isAbsent(body['labels']);
  const labels = top ? optionalRecord(body, 'labels') : optionalRecord(config, 'labels', CONFIG);
  return labels && optionalEndUser(labels, 'user', top ? 'labels' : `${CONFIG}.labels`);
}

type SamplingFields = Pick<
  CanonicalRequest,
  | 'maxOutputTokens'
  | 'temperature'
  | 'topP'
  | 'topK'
  | 'stopSequences'
  | 'candidateCount'
  | 'seed'
  | 'presencePenalty'
  | 'frequencyPenalty'
>;

function convertGenerationConfig(config: JsonObject): SamplingFields {
  return compact({
    maxOutputTokens: optionalNumber(config, 'maxOutputTokens', CONFIG, POSITIVE_INTEGER),
    temperature: optionalNumber(config, 'temperature', CONFIG, TEMPERATURE),
    topP: optionalNumber(config, 'topP', CONFIG, UNIT),
    topK: optionalNumber(config, 'topK', CONFIG, NON_NEGATIVE),
    stopSequences: optionalStringArray(config, 'stopSequences', CONFIG),
    candidateCount: optionalNumber(config, 'candidateCount', CONFIG, POSITIVE_INTEGER),
    seed: optionalNumber(config, 'seed', CONFIG),
    presencePenalty: optionalNumber(config, 'presencePenalty', CONFIG),
    frequencyPenalty: optionalNumber(config, 'frequencyPenalty', CONFIG),
  });
}

/** `application/json` with a schema (JSON Schema or Gemini's own) → json_schema; without → json_object. */
function convertResponseFormat(config: JsonObject, warnings: TranslationWarning[]): ResponseFormat | undefined {
  const mimeType = optionalString(config, 'responseMimeType', CONFIG);
  if (mimeType === undefined || mimeType === 'text/plain') return undefined;
  if (mimeType !== 'application/json') {
    warnings.push({ feature: `${CONFIG}.responseMimeType`, message: `Response type '${mimeType}' applies only on a Gemini upstream.` });
    return undefined;
  }
  const jsonSchema = config['responseJsonSchema'];
  if (jsonSchema !== undefined && jsonSchema !== null) {
    return { type: 'json_schema', schema: requireRecord(jsonSchema, `${CONFIG}.responseJsonSchema`) };
  }
  const schema = config['responseSchema'];
  if (schema !== undefined && schema !== null) {
    return { type: 'json_schema', schema: convertGeminiSchema(schema, `${CONFIG}.responseSchema`) };
  }
  return { type: 'json_object' };
}

/**
 * Budget 0 turns thinking off, -1 asks for a dynamic budget, a positive one is the budget;
 * `thinkingLevel` is an effort. Thinking is otherwise on: Gemini's thinking models think unless
 * told not to.
 */
function convertThinking(config: JsonObject): ThinkingConfig | undefined {
  const path = `${CONFIG}.thinkingConfig`;
  const thinking = optionalRecord(config, 'thinkingConfig', CONFIG);
  if (!thinking) return undefined;
  const budget = optionalNumber(thinking, 'thinkingBudget', path);
  const level = optionalString(thinking, 'thinkingLevel', path);
  const includeThoughts = optionalBoolean(thinking, 'includeThoughts', path);
  const effort = level === undefined || level === 'THINKING_LEVEL_UNSPECIFIED' ? undefined : level.toLowerCase();
  if (budget === undefined && effort === undefined && includeThoughts === undefined) return undefined;
  return compact({
    enabled: budget !== 0,
    budgetTokens: budget !== undefined && budget > 0 ? budget : undefined,
    effort,
    includeThoughts,
  });
}
