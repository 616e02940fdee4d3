/** The building blocks every part of the OpenAPI document is written with. */

export type Json = Record<string, unknown>;

/** A documented operation; `route` names the Nest route serving it when the paths differ (wildcards). */
export interface Operation extends Json {
  summary: string;
  tags: string[];
  'x-route'?: string;
}

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: Json, description = 'OK'): Json => ({ description, content: { 'application/json': { schema } } });
export const body = (schema: Json, required = true): Json => ({ required, content: { 'application/json': { schema } } });
export const pathParam = (name: string, description: string): Json => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
export const queryParam = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', required: false, description, schema });

export const ERRORS: Json = {
  '400': json(ref('OpenAIError'), 'Invalid request: the message names the field (in the dialect of the route); or `guardrail_violation`: a guardrail blocked the prompt or the answer'),
  '401': json(ref('OpenAIError'), 'Missing, unknown, revoked or expired key'),
  '402': json(ref('OpenAIError'), 'A dollar budget cannot cover the request (`budget_exceeded`)'),
  '403': json(ref('OpenAIError'), 'The key may not use this model'),
  '404': json(ref('OpenAIError'), 'Unknown model'),
  '429': json(ref('OpenAIError'), 'Rate limited; `retry-after` says when'),
  '502': json(ref('OpenAIError'), 'Every upstream attempt failed'),
  '503': json(ref('OpenAIError'), 'No endpoint available'),
};
export const ADMIN_ERRORS: Json = {
  '400': json(ref('OpenAIError'), 'Invalid body or parameter, named in the message and `param`'),
  '401': json(ref('OpenAIError'), 'Missing or wrong admin token, or no live dashboard session'),
  '403': json(ref('OpenAIError'), 'A viewer session tried a change, or a session change came without the x-rosetta-dashboard header or from another origin'),
  '404': json(ref('OpenAIError'), 'No such object'),
};

export const CLIENT_SECURITY = [{ apiKeyHeader: [] }, { bearer: [] }];
export const GEMINI_SECURITY = [{ googApiKey: [] }, { apiKeyQuery: [] }, { apiKeyHeader: [] }, { bearer: [] }];
export const ADMIN_SECURITY = [{ adminToken: [] }, { dashboardSession: [] }];
