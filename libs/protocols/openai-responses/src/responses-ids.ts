import { randomBytes } from 'node:crypto';

/**
 * Ids in the shapes OpenAI issues (`resp_…`, `msg_…`, `fc_…`, `rs_…`, `ctc_…`). A response id
 * is random (unguessable: stored responses are looked up by it); the ids of its output items are
 * derived from it, `<prefix>_<response suffix>_<n>`, so an item reference names the stored
 * response that holds the item without an index of its own.
 */
export function newResponseId(): string {
  return `resp_${randomBytes(16).toString('hex')}`;
}

export type ItemPrefix = 'msg' | 'fc' | 'rs' | 'ctc' | 'item';

/** Output item `n` of a response (`msg_<suffix>_2`); input items are `…_i<n>`. */
export function itemId(responseId: string, prefix: ItemPrefix, n: number | `i${number}`): string {
  return `${prefix}_${responseId.slice('resp_'.length)}_${n}`;
}

const ITEM_ID = /^[a-z]+_([0-9a-f]{32})_i?\d+$/;

/** Whether an item id is one we issued (not the upstream's own, nor the client's). */
export function isOurItemId(id: string): boolean {
  return ITEM_ID.test(id);
}

/** The response an item id of ours belongs to, or undefined for ids we did not issue. */
export function responseIdOfItem(id: string): string | undefined {
  const match = ITEM_ID.exec(id);
  return match ? `resp_${match[1]}` : undefined;
}
