/**
 * Canonical request → Gemini `generateContent` body for an upstream. The model and streaming
 * are in the URL (`geminiPath`), not the body.
 *
 * Fast path: a request that came in as dialect C is forwarded as the client sent it (normalised
 * to camelCase), so fields Rosetta does not model (safety settings, built-in tools, speech and
 * image config) still reach Google. Only the routing fields and any `model` go, signatures
 * another provider issued are taken out, and SDK config fields sent inside `generationConfig`
 * are moved to where the REST API expects them.
 */
import {
  ROUTING_FIELD_NAMES,
  type CanonicalRequest,
  type Converted,
  type ResponseFormat,
  type ThinkingConfig,
  type ToolChoice,
  type ToolDefinition,
  type TranslationWarning,
} from '@rosetta/canonical';
import { compact, isRecord, unwrapSignature, type JsonObject } from '@rosetta/protocols/common';
import { convertToGeminiContents } from './convert-to-gemini-contents';

type Warnings = TranslationWarning[];

/** `/v1beta/models/<model>:generateContent`, or the SSE streaming operation. */
export function geminiPath(model: string, stream: boolean): string {
  const name = model.startsWith('models/') ? model.slice('models/'.length) : model;
  return `/v1beta/models/${name}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

export function convertToGeminiRequest({
  request,
  upstreamModel,
}: {
  request: CanonicalRequest;
  /** Goes in the URL; it also decides whether replayed calls need Gemini 3's dummy signature. */
  upstreamModel?: string;
}): Converted<Record<string, unknown>> {
  const converted = convertBody(request);
  if (upstreamModel !== undefined && requiresCallSignatures(upstreamModel)) signForeignCalls(converted);
  return converted;
}

function convertBody(request: CanonicalRequest): Converted<Record<string, unknown>> {
  if (request.passthrough?.protocol === 'gemini') {
    return { value: forwardPassthrough(request.passthrough.body), warnings: [] };
  }
  const converted = convertToGeminiContents({ messages: request.messages });
  const warnings: Warnings = [...converted.warnings];
  if (request.parallelToolCalls === false) {
    warnings.push({ feature: 'parallel_tool_calls', message: 'Gemini cannot be told to call one tool at a time; dropped.' });
  }
  const generationConfig = toGenerationConfig(request, warnings);
  const body: Record<string, unknown> = compact({
    systemInstruction: converted.value.systemInstruction,
    contents: converted.value.contents,
    tools: request.tools && request.tools.length > 0 ? [{ functionDeclarations: request.tools.map(toDeclaration) }] : undefined,
    toolConfig: request.toolChoice && { functionCallingConfig: toFunctionCallingConfig(request.toolChoice) },
    generationConfig: Object.keys(generationConfig).length > 0 ? generationConfig : undefined,
  });
  return { value: body, warnings };
}

/** SDK `GenerateContentConfig` members that the REST API takes at the top level. */
const TOP_LEVEL_CONFIG_FIELDS = ['systemInstruction', 'tools', 'toolConfig', 'safetySettings', 'cachedContent', 'labels'];
/** SDK-side options with no place on the wire. */
const CLIENT_ONLY_CONFIG_FIELDS = ['httpOptions', 'abortSignal'];

function forwardPassthrough(original: Record<string, unknown>): Record<string, unknown> {
  const body: JsonObject = { ...original };
  for (const name of ROUTING_FIELD_NAMES) delete body[name];
  delete body['model'];
  if (isRecord(body['generationConfig'])) {
    const config: JsonObject = { ...body['generationConfig'] };
    for (const key of TOP_LEVEL_CONFIG_FIELDS) {
      if (config[key] !== undefined && body[key] === undefined) body[key] = config[key];
      delete config[key];
    }
    for (const key of CLIENT_ONLY_CONFIG_FIELDS) delete config[key];
    body['generationConfig'] = config;
  }
  if (Array.isArray(body['contents'])) body['contents'] = body['contents'].map(withGeminiSignaturesOnly);
  return body;
}

/**
 * A dialect-C client may hold signatures another provider issued (wrapped with their origin
 * when shown to it); Gemini would reject them. Its own ones, even wrapped, go back unwrapped.
 */
function withGeminiSignaturesOnly(content: unknown): unknown {
  if (!isRecord(content) || !Array.isArray(content['parts'])) return content;
  const parts = content['parts'].map((part: unknown) => {
    if (!isRecord(part) || typeof part['thoughtSignature'] !== 'string') return part;
    const signature = unwrapSignature(part['thoughtSignature'], 'gemini');
    if (signature.value === part['thoughtSignature']) return part;
    const { thoughtSignature: _foreign, ...rest } = part;
    return signature.protocol === 'gemini' ? { ...rest, thoughtSignature: signature.value } : rest;
  });
  return { ...content, parts };
}

/**
 * Google's documented stand-in for a signature Gemini never issued: Gemini 3 refuses a replayed
 * function call without one, and a call another model made (or one whose signature was lost on
 * the way) has none to give.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** Gemini 3 and later validate function-call signatures (`gemini-3-pro-preview`, `gemini-3.1-flash`…). */
export function requiresCallSignatures(upstreamModel: string): boolean {
  const major = /^(?:models\/)?gemini-(\d+)/.exec(upstreamModel)?.[1];
  return major !== undefined && Number(major) >= 3;
}

/**
 * In every model turn that calls functions without any signature, the first call (the one Gemini
 * itself would have signed; parallel calls carry one signature) gets the dummy.
 */
function signForeignCalls(converted: Converted<Record<string, unknown>>): void {
  const contents = converted.value['contents'];
  if (!Array.isArray(contents)) return;
  let signed = 0;
  converted.value['contents'] = contents.map((content: unknown) => {
    if (!isRecord(content) || content['role'] !== 'model' || !Array.isArray(content['parts'])) return content;
    const parts = content['parts'] as unknown[];
    const calls = parts.filter((part) => isRecord(part) && part['functionCall'] !== undefined) as JsonObject[];
    const first = calls[0];
    if (!first || calls.some((part) => typeof part['thoughtSignature'] === 'string')) return content;
    signed++;
    return { ...content, parts: parts.map((part) => (part === first ? { ...first, thoughtSignature: SKIP_SIGNATURE } : part)) };
  });
  if (signed > 0) {
    converted.warnings.push({
      feature: 'thought_signature',
      message: `Gemini 3 requires signed function calls; ${signed} call turn(s) from another model were sent with Google's validator-skip signature.`,
    });
  }
}

function toDeclaration(tool: ToolDefinition): Record<string, unknown> {
  return compact({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters });
}

function toFunctionCallingConfig(choice: ToolChoice): Record<string, unknown> {
  switch (choice.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [choice.name] };
  }
}

const MAX_STOP_SEQUENCES = 5;
const MAX_TEMPERATURE = 2;

function toGenerationConfig(request: CanonicalRequest, warnings: Warnings): JsonObject {
  let stopSequences = request.stopSequences;
  if (stopSequences && stopSequences.length > MAX_STOP_SEQUENCES) {
    warnings.push({ feature: 'stop', message: `Gemini takes at most ${MAX_STOP_SEQUENCES} stop sequences; the rest were dropped.` });
    stopSequences = stopSequences.slice(0, MAX_STOP_SEQUENCES);
  }
  let temperature = request.temperature;
  if (temperature !== undefined && (temperature < 0 || temperature > MAX_TEMPERATURE)) {
    warnings.push({ feature: 'temperature', message: `Gemini takes a temperature from 0 to ${MAX_TEMPERATURE}; it was clamped.` });
    temperature = Math.min(Math.max(temperature, 0), MAX_TEMPERATURE);
  }
  return compact({
    maxOutputTokens: request.maxOutputTokens,
    temperature,
    topP: request.topP,
    topK: request.topK,
    stopSequences,
    candidateCount: request.candidateCount,
    seed: request.seed,
    presencePenalty: request.presencePenalty,
    frequencyPenalty: request.frequencyPenalty,
    ...toResponseFormat(request.responseFormat),
    thinkingConfig: request.thinking && toThinkingConfig(request.thinking, warnings),
  });
}

function toResponseFormat(format: ResponseFormat | undefined): JsonObject {
  if (format?.type === 'json_schema') return { responseMimeType: 'application/json', responseJsonSchema: format.schema };
  if (format?.type === 'json_object') return { responseMimeType: 'application/json' };
  return {};
}

const THINKING_LEVELS: Record<string, string> = { minimal: 'MINIMAL', low: 'LOW', medium: 'MEDIUM', high: 'HIGH', xhigh: 'HIGH', max: 'HIGH' };

/**
 * A budget is sent as is, with the thoughts asked for (the canonical stream carries them); an
 * effort becomes a thinking level. Thinking is turned off only when the request said so.
 */
function toThinkingConfig(thinking: ThinkingConfig, warnings: Warnings): JsonObject | undefined {
  if (!thinking.enabled) return { thinkingBudget: 0 };
  const includeThoughts = thinking.includeThoughts ?? true;
  if (thinking.budgetTokens !== undefined) return { thinkingBudget: thinking.budgetTokens, includeThoughts };
  if (thinking.effort === undefined) return { includeThoughts };
  const level = THINKING_LEVELS[thinking.effort.toLowerCase()];
  if (level === undefined || level.toLowerCase() !== thinking.effort.toLowerCase()) {
    const message =
      level === undefined
        ? `Gemini has no thinking level '${thinking.effort}'; the model's default applies.`
        : `Gemini has no thinking level '${thinking.effort}'; using ${level}.`;
    warnings.push({ feature: 'thinking', message });
  }
  return compact({ thinkingLevel: level, includeThoughts });
}
