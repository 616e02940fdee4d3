/**
 * A request's `Cache-Control` as the response cache reads it (RFC 9111 §5.2.1): `no-cache` — do not
 * answer from the cache, but store the fresh answer; `no-store` — neither read nor write.
 */
export interface CacheDirectives {
  read: boolean;
  write: boolean;
}

const DEFAULT: CacheDirectives = Object.freeze({ read: true, write: true });

export function cacheDirectives(header: string | string[] | undefined): CacheDirectives {
  if (header === undefined) return DEFAULT;
  const text = (Array.isArray(header) ? header.join(',') : header).toLowerCase();
  let read = true;
  let write = true;
  for (const part of text.split(',')) {
    const name = part.split('=')[0]!.trim();
    if (name === 'no-store') read = write = false;
    else if (name === 'no-cache' || name === 'max-age' && part.split('=')[1]?.trim() === '0') read = false;
  }
  return { read, write };
}
