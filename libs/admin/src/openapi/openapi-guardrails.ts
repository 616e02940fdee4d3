/** Guardrails in the OpenAPI document (ARCHITECTURE §9, "Governance"; docs/guide/guardrails.md). */
import { PII_KINDS, SECRET_KINDS } from '@rosetta/guardrails';
import { ref, type Json } from './openapi-parts';

const STAGES = { type: 'string', enum: ['input', 'output', 'both'] };
const ACTIONS = { type: 'string', enum: ['block', 'redact', 'log'] };

export const GUARDRAIL_SCHEMAS: Json = {
  GuardrailCheck: {
    type: 'object',
    description: 'One check: pii, secrets, regex (a linear-time subset), webhook or model; at most 16 per level',
    required: ['check', 'on', 'action'],
    properties: {
      check: { type: 'string', enum: ['pii', 'secrets', 'regex', 'webhook', 'model'] },
      on: STAGES,
      action: ACTIONS,
      kinds: { type: 'array', items: { type: 'string', enum: [...PII_KINDS, ...SECRET_KINDS] }, description: 'pii or secrets: the kinds to find (default: all)' },
      patterns: { type: 'array', maxItems: 32, items: { oneOf: [{ type: 'string', maxLength: 256 }, { type: 'object', properties: { pattern: { type: 'string', maxLength: 256 }, name: { type: 'string', maxLength: 40 } }, required: ['pattern'] }] } },
      ignore_case: { type: 'boolean', description: 'regex: fold ASCII case' },
      url: { type: 'string', format: 'uri', description: 'webhook: receives POST {stage, text, request_id, key_id}' },
      timeout_ms: { type: 'integer', minimum: 1, maximum: 30000, description: 'webhook: default 2000' },
      fail: { type: 'string', enum: ['open', 'closed'], description: 'webhook: what an unanswered check does (default closed)' },
      model: { type: 'string', description: 'model: the classifier, a model id of the registry' },
      categories: { type: 'array', items: { type: 'string' } },
    },
  },
  GuardrailVerdict: {
    type: 'object',
    description: 'What a check found: kinds only, never the matched text',
    properties: {
      check: { type: 'string', enum: ['pii', 'secrets', 'regex', 'webhook', 'model'] },
      source: { type: 'string', enum: ['key', 'team', 'plan'], description: 'The level the check is configured on' },
      index: { type: 'integer', description: "The check's position in that level's list" },
      stage: { type: 'string', enum: ['input', 'output'] },
      action: ACTIONS,
      kinds: { type: 'array', items: { type: 'string' } },
      unavailable: { type: 'string', description: 'An external check that could not decide: why (its fail choice applied)' },
    },
  },
};

/** `guardrails` on a plan, team or key: null (or []) removes the level's checks. */
export const GUARDRAILS_FIELD: Json = { guardrails: { type: ['array', 'null'], maxItems: 16, items: ref('GuardrailCheck'), description: "Checks on the prompt and the answer; the key's, its team's and its plan's all apply" } };
