/**
 * Attribution fields (ARCHITECTURE §9 "Attribution", decision 0033): who a request is for (the end
 * user) and how it is labelled (tags), read wherever a dialect carries them and recorded on the
 * ledger. Both are the caller's words, never an identity: they are bounded and checked so a hostile
 * value is a 400 naming its field, and never reach the ledger, a Redis key or a CSV unchecked.
 *
 * Every check is one linear pass over a value the body or header limit already bounds.
 */
import { invalidField, isAbsent, fieldPath } from './request-fields';
import type { JsonObject } from './wire-guards';

/** The longest end user recorded (UTF-16 code units): room for an email, a UUID or a hashed id. */
export const END_USER_MAX_LENGTH = 256;
/** At most this many tags per request, each at most TAG_MAX_LENGTH characters of TAG_CHARACTERS. */
export const MAX_TAGS = 16;
export const TAG_MAX_LENGTH = 64;
/** Letters, digits and `_ - . : / = @ +`: `team:search`, `env=prod`, `feature/chat`, `v1.2`. */
const TAG = /^[A-Za-z0-9_.:/=@+-]+$/;
const TAG_RULE = `at most ${MAX_TAGS} tags of 1 to ${TAG_MAX_LENGTH} characters each (letters, digits and _ - . : / = @ +)`;
/** C0 and C1 control characters, DEL included: no end user needs them, and logs and CSVs must not get them. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
/** A UTF-16 surrogate without its partner: not text, and PostgreSQL refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with `value` as an end user, or undefined. */
export function endUserProblem(value: string): string | undefined {
  if (value.length > END_USER_MAX_LENGTH) return `must be at most ${END_USER_MAX_LENGTH} characters, got ${value.length}`;
  if (hasControlCharacter(value)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode text';
  return undefined;
}

/**
 * The end user at `parent.key`: a string of at most END_USER_MAX_LENGTH characters without control
 * characters, surrounding blanks trimmed. Absent, null or blank: no end user.
 */
export function optionalEndUser(record: JsonObject, key: string, parent = ''): string | undefined {
  const value = record[key];
  if (isAbsent(value)) return undefined;
  const path = fieldPath(parent, key);
  if (typeof value !== 'string') throw invalidField(path, 'must be a string');
  const problem = endUserProblem(value);
  if (problem) throw invalidField(path, problem);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * `metadata.tags`: a list of strings as ARCHITECTURE §9 says, or one comma-separated string (the
 * OpenAI SDKs type `metadata` as string values only, so a typed client can still tag). Trimmed,
 * empty ones dropped, duplicates dropped in order; undefined when none is left.
 */
export function optionalTags(metadata: JsonObject, parent = 'metadata'): string[] | undefined {
  const value = metadata['tags'];
  if (isAbsent(value)) return undefined;
  const path = fieldPath(parent, 'tags');
  if (typeof value === 'string') return parseTagList(value, path);
  if (!Array.isArray(value)) throw invalidField(path, `must be a list of strings: ${TAG_RULE}`);
  if (value.length > MAX_TAGS * 4) throw invalidField(path, `must hold ${TAG_RULE}`);
  const items: string[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'string') throw invalidField(`${path}[${index}]`, 'must be a string');
    items.push(item);
  }
  return normalizeTags(items, path);
}

/** A comma-separated list of tags (the `x-rosetta-tags` header, or a string `metadata.tags`). */
export function parseTagList(text: string, path: string): string[] | undefined {
  // Bounded before splitting: 16 tags of 64 characters and their commas, with room for blanks.
  if (text.length > MAX_TAGS * (TAG_MAX_LENGTH + 8)) throw invalidField(path, `must hold ${TAG_RULE}`);
  return normalizeTags(text.split(','), path);
}

function normalizeTags(items: readonly string[], path: string): string[] | undefined {
  const tags: string[] = [];
  for (const item of items) {
    const tag = item.trim();
    if (tag === '' || tags.includes(tag)) continue;
    if (tag.length > TAG_MAX_LENGTH || !TAG.test(tag)) throw invalidField(path, `must hold ${TAG_RULE}; '${preview(tag)}' is not one`);
    tags.push(tag);
    if (tags.length > MAX_TAGS) throw invalidField(path, `must hold ${TAG_RULE}`);
  }
  return tags.length > 0 ? tags : undefined;
}

/** A refused tag as the error shows it: short, and only the characters a tag may hold. */
function preview(tag: string): string {
  const shown = tag.slice(0, TAG_MAX_LENGTH + 1).replace(/[^A-Za-z0-9_.:/=@+ -]/g, '?');
  return tag.length > TAG_MAX_LENGTH + 1 ? `${shown}...` : shown;
}

/**
 * A same-protocol upstream gets the client's `metadata` as sent, except `tags` where the upstream
 * would refuse it: OpenAI's metadata takes string values only (a list is a 400 there), Anthropic's
 * takes `user_id` alone. `keepStringTags`: a string `tags` is valid OpenAI metadata, and stays.
 */
export function withoutGatewayTags(body: Record<string, unknown>, keepStringTags: boolean): Record<string, unknown> {
  const metadata = body['metadata'];
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata) || !('tags' in metadata)) return body;
  const { tags, ...rest } = metadata as Record<string, unknown>;
  if (keepStringTags && typeof tags === 'string') return body;
  return { ...body, metadata: rest };
}
