/**
 * Canonical response → dialect-C JSON, camelCase and proto3-shaped like Google's own, so the
 * Gemini SDKs parse it: one candidate at index 0, the model's parts in order, usage metadata.
 */
import type { AssistantContentPart, CanonicalResponse, ProviderSignature } from '@rosetta/canonical';
import type { Part } from '@google/genai';
import { isRecord, wrapSignature } from '@rosetta/protocols/common';
import { toGeminiFinishReason } from './map-gemini-finish-reason';
import { toGeminiUsage } from './map-gemini-usage';

export function convertToGeminiResponse({ response }: { response: CanonicalResponse }): Record<string, unknown> {
  const body: Record<string, unknown> = {
    candidates: [
      {
        content: { role: 'model', parts: response.content.flatMap(toGeminiPart) },
        finishReason: toGeminiFinishReason(response.finishReason),
        index: 0,
      },
    ],
  };
  if (response.usage) body['usageMetadata'] = toGeminiUsage(response.usage);
  body['modelVersion'] = response.model;
  body['responseId'] = response.id;
  return body;
}

/**
 * Signatures are shown to the client whatever their origin: a foreign one is wrapped with it, so
 * that when the client sends the turn back it returns to the provider that issued it.
 * Redacted thinking is encrypted for another provider and has no Gemini form.
 */
export function toGeminiPart(part: AssistantContentPart): Part[] {
  switch (part.type) {
    case 'text':
      return [signed({ text: part.text }, part.signature)];
    case 'thinking':
      return [signed({ text: part.text, thought: true }, part.signature)];
    case 'refusal':
      return [{ text: part.text }];
    case 'tool_call':
      return [signed({ functionCall: { id: part.id, name: part.name, args: toGeminiArgs(part.arguments) } }, part.signature)];
    case 'redacted_thinking':
      return [];
  }
}

export function signed(part: Part, signature: ProviderSignature | undefined): Part {
  return signature ? { ...part, thoughtSignature: wrapSignature(signature, 'gemini') } : part;
}

/**
 * Gemini clients take arguments as an object. Text that is not a JSON object (a call cut off by
 * the output cap) cannot be given as one, so it becomes the empty object.
 */
export function toGeminiArgs(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
