/**
 * Conversation state for the Responses dialect: which stored responses a body refers to
 * (`previous_response_id`, `item_reference`s), the whole conversation rebuilt from them, and the
 * record kept for a new response. Pure: the gateway loads and stores the records.
 */
import { GatewayError } from '@rosetta/canonical';
import type { StoredRecord } from '@rosetta/protocols/common';
import { invalidField, isRecord, isString, type JsonObject } from '@rosetta/protocols/common';
import { itemNotFound } from './convert-openai-responses-input';
import { itemId, responseIdOfItem, type ItemPrefix } from './responses-ids';

/** Distinct stored responses one body may refer to: bounded work before the upstream call. */
export const MAX_REFERENCES = 64;

/** The record kept for one response. */
export interface ResponseRecord extends StoredRecord {
  /** The response object as finished, encrypted reasoning included. */
  response: JsonObject;
  /** This request's own input items, with ids. */
  input: JsonObject[];
  /** The conversation before this request (from `previous_response_id`). */
  history: JsonObject[];
}

export function references(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const ids = new Set<string>();
  if (isString(body['previous_response_id'])) ids.add(body['previous_response_id']);
  if (Array.isArray(body['input'])) {
    for (const item of body['input']) {
      const owner = isRecord(item) && item['type'] === 'item_reference' && isString(item['id']) ? responseIdOfItem(item['id']) : undefined;
      if (owner) ids.add(owner);
    }
  }
  if (ids.size > MAX_REFERENCES) throw GatewayError.invalidRequest(`A request may refer to at most ${MAX_REFERENCES} stored responses; this one refers to ${ids.size}.`, 'input');
  return [...ids];
}

export interface Conversation {
  /** Items from the previous response's conversation. */
  history: JsonObject[];
  /** This request's own input, as items with references resolved. */
  own: JsonObject[];
}

/** The conversation a body continues, from the stored records it refers to (those the caller owns). */
export function rebuildConversation(body: JsonObject, stored: ReadonlyMap<string, StoredRecord> | undefined, responseId: string): Conversation {
  const previous = isString(body['previous_response_id']) ? body['previous_response_id'] : undefined;
  let history: JsonObject[] = [];
  if (previous !== undefined) {
    const record = stored?.get(previous) as ResponseRecord | undefined;
    if (!record) throw GatewayError.invalidRequest(`Previous response with id '${previous}' not found.`, 'previous_response_id');
    history = [...record.history, ...record.input, ...outputOf(record)];
  }
  return { history, own: ownItems(body['input'], stored, responseId) };
}

function ownItems(input: unknown, stored: ReadonlyMap<string, StoredRecord> | undefined, responseId: string): JsonObject[] {
  if (isString(input)) return [{ id: itemId(responseId, 'msg', 'i0'), type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw invalidField('input', 'must be a string or an array');
  return input.map((raw, i) => {
    if (!isRecord(raw)) return raw as JsonObject; // the decoder names the field
    if (raw['type'] === 'item_reference') return resolve(raw, stored, `input[${i}]`);
    const type = isString(raw['type']) ? raw['type'] : 'message';
    return { ...raw, type, id: isString(raw['id']) ? raw['id'] : itemId(responseId, prefixOf(type), `i${i}`) };
  });
}

function resolve(reference: JsonObject, stored: ReadonlyMap<string, StoredRecord> | undefined, path: string): JsonObject {
  const id = isString(reference['id']) ? reference['id'] : '';
  const owner = responseIdOfItem(id);
  const record = owner === undefined ? undefined : (stored?.get(owner) as ResponseRecord | undefined);
  const item = record && [...record.input, ...outputOf(record)].find((candidate) => candidate['id'] === id);
  if (!item) throw itemNotFound(id, `${path}.id`);
  return item;
}

function outputOf(record: ResponseRecord): JsonObject[] {
  const output = record.response['output'];
  return Array.isArray(output) ? output.filter(isRecord) : [];
}

function prefixOf(type: string): ItemPrefix {
  if (type === 'message') return 'msg';
  if (type === 'function_call') return 'fc';
  if (type === 'reasoning') return 'rs';
  if (type === 'custom_tool_call') return 'ctc';
  return 'item';
}

/** The Responses list shape (`GET …/input_items`), newest first unless `order=asc`, paged by `after` and `limit`. */
export function inputItemsPage(record: ResponseRecord, query: Record<string, unknown>): JsonObject {
  const order = query['order'] === 'asc' ? 'asc' : 'desc';
  const limit = Math.min(Math.max(Number.parseInt(String(query['limit'] ?? '20'), 10) || 20, 1), 100);
  const all = order === 'asc' ? record.input : [...record.input].reverse();
  const after = isString(query['after']) ? all.findIndex((item) => item['id'] === query['after']) + 1 : 0;
  const data = all.slice(after, after + limit);
  return { object: 'list', data, first_id: data[0]?.['id'] ?? null, last_id: data[data.length - 1]?.['id'] ?? null, has_more: after + limit < all.length };
}
