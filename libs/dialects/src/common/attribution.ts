import { GatewayError } from '@rosetta/canonical';
import { endUserProblem, parseTagList } from '@rosetta/protocols/common';
import type { Attribution } from '@rosetta/usage';

export const END_USER_HEADER = 'x-rosetta-end-user';
export const TAGS_HEADER = 'x-rosetta-tags';

/** Visible ASCII and spaces: a header has no agreed character set beyond it (RFC 9110 §5.5). */
const HEADER_TEXT = /^[\x20-\x7e]*$/;

/**
 * The request's end user and tags for the ledger (decision 0033): the headers when the caller sent
 * them (an operator's proxy sets them for clients that cannot), else what the body carried. A bad
 * header is a 400 naming it; the body's fields were checked by the dialect's decode.
 */
export function attributionOf(headers: Record<string, string | string[] | undefined>, body: { user?: string; tags?: string[] }): Attribution {
  const endUser = endUserHeader(headers[END_USER_HEADER]) ?? body.user;
  const tags = tagsHeader(headers[TAGS_HEADER]) ?? body.tags;
  return { ...(endUser !== undefined ? { endUser } : {}), ...(tags !== undefined ? { tags } : {}) };
}

function endUserHeader(value: string | string[] | undefined): string | undefined {
  const text = single(value, END_USER_HEADER)?.trim();
  if (text === undefined || text === '') return undefined;
  const problem = !HEADER_TEXT.test(text) ? 'must be visible ASCII (send other characters in the body field: user, metadata.user_id or labels.user)' : endUserProblem(text);
  if (problem) throw GatewayError.invalidRequest(`Invalid '${END_USER_HEADER}' header: ${problem}`, END_USER_HEADER);
  return text;
}

function tagsHeader(value: string | string[] | undefined): string[] | undefined {
  const text = single(value, TAGS_HEADER);
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return parseTagList(text, TAGS_HEADER);
  } catch (error) {
    // The shared message says `Invalid 'x-rosetta-tags': …`; a header is named as one.
    if (error instanceof GatewayError) throw GatewayError.invalidRequest(error.message.replace(`'${TAGS_HEADER}'`, `'${TAGS_HEADER}' header`), TAGS_HEADER);
    throw error;
  }
}

/** Node joins repeated custom headers with ', ' (so repeated tags headers read as one list); an array is never expected, but refused plainly. */
function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw GatewayError.invalidRequest(`Invalid '${name}' header: give it once`, name);
  return value;
}
