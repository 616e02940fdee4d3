/** Upstream Responses JSON → canonical response. */
import { GatewayError, type CanonicalResponse } from '@rosetta/canonical';
import { isRecord, numberField, recordField, stringField } from '@rosetta/protocols/common';
import { convertOpenAIResponsesOutput } from './convert-openai-responses-output';
import { mapOpenAIResponsesStatus, mapOpenAIResponsesUsage } from './map-openai-responses-usage';

export function convertOpenAIResponsesResponse({ body }: { body: unknown }): CanonicalResponse {
  if (!isRecord(body) || !Array.isArray(body['output'])) {
    throw new GatewayError('upstream_error', 'Upstream service error: response has no output', { status: 502 });
  }
  if (stringField(body, 'status') === 'failed') {
    const message = stringField(recordField(body, 'error') ?? {}, 'message') ?? 'the response failed';
    throw new GatewayError('upstream_error', `Upstream service error: ${message}`, { status: 502, retryable: true });
  }
  const content = convertOpenAIResponsesOutput(body['output']);
  const response: CanonicalResponse = {
    id: stringField(body, 'id') ?? '',
    model: stringField(body, 'model') ?? '',
    created: numberField(body, 'created_at') ?? Math.floor(Date.now() / 1000),
    content,
    finishReason: mapOpenAIResponsesStatus(body, content.some((p) => p.type === 'tool_call')),
  };
  const usage = mapOpenAIResponsesUsage(body['usage']);
  if (usage) response.usage = usage;
  return response;
}
