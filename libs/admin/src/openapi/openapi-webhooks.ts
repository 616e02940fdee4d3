/** Alert webhooks in the OpenAPI document (ARCHITECTURE §9 "Governance"); openapi-document.ts merges them in. */
import { ALERT_EVENTS } from '@rosetta/alerts';
import { body, json, pathParam, ref, type Json } from './openapi-parts';

export const WEBHOOKS_TAG = 'Admin: webhooks';

export const WEBHOOK_SCHEMAS: Json = {
  Webhook: {
    type: 'object',
    description: 'Where alerts go; the signing secret is never shown again',
    properties: {
      id: { type: 'string', format: 'uuid' },
      url: { type: 'string' },
      events: { type: 'array', items: { type: 'string', enum: [...ALERT_EVENTS] } },
      created_at: { type: 'string', format: 'date-time' },
      secret: { type: 'string', description: 'Only in the answer to a POST without a secret: the generated one, shown once' },
      last_delivery: {
        type: ['object', 'null'],
        description: 'The last attempt at delivering anything to it',
        properties: {
          status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
          event_id: { type: 'string' },
          attempts: { type: 'integer' },
          http_status: { type: ['integer', 'null'] },
          error: { type: ['string', 'null'] },
          at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
  AlertDelivery: {
    type: 'object',
    description: 'What a webhook receives: POST JSON, signed with `x-rosetta-signature: sha256=<hex HMAC-SHA256 of the body with the secret>`',
    properties: { event: { type: 'string', enum: [...ALERT_EVENTS] }, text: { type: 'string' }, data: { type: 'object' }, id: { type: 'string', description: 'The same for every retry of one event' } },
  },
};

const CREATE: Json = {
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', description: 'http(s); a private or loopback host only when listed in WEBHOOK_ALLOW_HOSTS' },
    events: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...ALERT_EVENTS] } },
    secret: { type: 'string', minLength: 16, maxLength: 512, description: 'The HMAC key; generated and returned once when absent' },
  },
};

export function webhookPaths(admin: (summary: string, tag: string, responses: Json, extra?: Json) => Json): Record<string, Record<string, Json>> {
  return {
    '/admin/webhooks': {
      post: admin('Add an alert webhook (400 naming the field for an unknown event or a refused URL)', WEBHOOKS_TAG, { '201': json(ref('Webhook'), 'Created') }, { requestBody: body(CREATE) }),
      get: admin('List webhooks with their last delivery (never the secret)', WEBHOOKS_TAG, { '200': json({ type: 'array', items: ref('Webhook') }) }),
    },
    '/admin/webhooks/{id}': {
      delete: admin('Remove a webhook and its pending deliveries', WEBHOOKS_TAG, { '200': json({ type: 'object', properties: { id: { type: 'string' }, deleted: { type: 'boolean' } } }) }, { parameters: [pathParam('id', 'The webhook id')] }),
    },
  };
}
