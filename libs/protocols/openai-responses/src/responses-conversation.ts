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

/**
 * Distinct stored responses one body may refer to (the AI SDK refers to every earlier answer of a
 * chat); what they weigh is bounded by the gateway before it loads them.
 */
export const MAX_REFERENCES = 1_000;

/**
 * The record kept for one response: its own turn only. The conversation before it is the chain
 * of records its `previous_response_id` names, stored once each (the gateway loads the chain).
 */
export interface ResponseRecord extends StoredRecord {
  /** The response object as finished, encrypted reasoning included. */
  response: JsonObject;
  /** This request's own input items, with ids. */
  input: JsonObject[];
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
  return { history: previous === undefined ? [] : history(previous, stored), own: ownItems(body['input'], stored, responseId) };
}

/** Every turn up to and including `previous`, oldest first, from its chain of stored records. */
function history(previous: string, stored: ReadonlyMap<string, StoredRecord> | undefined): JsonObject[] {
  const turns: ResponseRecord[] = [];
  for (let id: unknown = previous; isString(id); ) {
    const record = stored?.get(id) as ResponseRecord | undefined;
    if (!record) {
      const where = id === previous ? '' : ' (earlier in the conversation it continues)';
      throw GatewayError.invalidRequest(`Previous response with id '${id}'${where} not found.`, 'previous_response_id');
    }
    turns.push(record);
    id = record.response['previous_response_id'];
  }
  return turns.reverse().flatMap((record) => [...record.input, ...outputOf(record)]);
}

function ownItems(input: unknown, stored: ReadonlyMap<string, StoredRecord> | undefined, responseId: string): JsonObject[] {
  if (isString(input)) return [{ id: itemId(responseId, 'msg', 'i0'), type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw invalidField('input', 'must be a string or an array');
  const references = new ReferenceIndex(stored);
  return input.map((raw, i) => {
    if (!isRecord(raw)) return raw as JsonObject; // the decoder names the field
    if (raw['type'] === 'item_reference') return references.resolve(raw, `input[${i}]`);
    const type = isString(raw['type']) ? raw['type'] : 'message';
    return { ...raw, type, id: isString(raw['id']) ? raw['id'] : itemId(responseId, prefixOf(type), `i${i}`) };
  });
}

/**
 * The items of the stored responses a body refers to, by id: each record indexed once, so
 * resolving is linear in the references and the items. An item referenced twice is refused, as
 * OpenAI refuses it, rather than copied: references are small and stored items large.
 */
class ReferenceIndex {
  private readonly byRecord = new Map<string, Map<unknown, JsonObject>>();
  private readonly used = new Set<string>();

  constructor(private readonly stored: ReadonlyMap<string, StoredRecord> | undefined) {}

  resolve(reference: JsonObject, path: string): JsonObject {
    const id = isString(reference['id']) ? reference['id'] : '';
    const owner = responseIdOfItem(id);
    const item = owner === undefined ? undefined : this.itemsOf(owner)?.get(id);
    if (!item) throw itemNotFound(id, `${path}.id`);
    if (this.used.has(id)) throw GatewayError.invalidRequest(`Duplicate item found with id ${id}. Remove the duplicate items from your input and try again.`, `${path}.id`);
    this.used.add(id);
    return item;
  }

  private itemsOf(owner: string): Map<unknown, JsonObject> | undefined {
    let items = this.byRecord.get(owner);
    if (items) return items;
    const record = this.stored?.get(owner) as ResponseRecord | undefined;
    if (!record) return undefined;
    items = new Map();
    for (const candidate of [...record.input, ...outputOf(record)]) if (!items.has(candidate['id'])) items.set(candidate['id'], candidate);
    this.byRecord.set(owner, items);
    return items;
  }
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
