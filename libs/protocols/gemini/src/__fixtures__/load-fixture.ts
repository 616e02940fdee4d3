/** Test-only helpers: read recorded fixtures, and turn stream events into comparable JSON. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function fixtureText(name: string): string {
  return readFileSync(join(__dirname, name), 'utf8');
}

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** One JSON value per line. */
export function fixtureLines(name: string): unknown[] {
  return fixtureText(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

// Shared with the other codecs' fixtures.
export { deserializeEvents, serializeEvents, type SerializedError, type SerializedEvent } from '../../../common/src/__fixtures__/serialized-events';

/** Feeds a text in pieces of varying size (and so splits it at awkward places). */
export async function* inPieces(text: string, sizes: readonly number[] = [1, 3, 7, 2, 11, 5]): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    yield bytes.slice(offset, offset + size);
    offset += size;
  }
}

export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}
