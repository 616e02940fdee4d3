/** Test-only helpers: read recorded fixtures, and turn stream events into comparable JSON. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, type GatewayErrorType, type StreamEvent } from '@rosetta/canonical';

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

export interface SerializedError {
  type: GatewayErrorType;
  status: number;
  message: string;
}

export type SerializedEvent = Exclude<StreamEvent, { type: 'error' }> | { type: 'error'; error: SerializedError };

/** Errors become their type, status and message: the parts a client sees. */
export function serializeEvents(events: StreamEvent[]): SerializedEvent[] {
  return events.map((event) =>
    event.type === 'error'
      ? { type: 'error', error: { type: event.error.type, status: event.error.status, message: event.error.message } }
      : event,
  );
}

export function deserializeEvents(events: SerializedEvent[]): StreamEvent[] {
  return events.map((event) =>
    event.type === 'error'
      ? { type: 'error', error: new GatewayError(event.error.type, event.error.message, { status: event.error.status }) }
      : event,
  );
}

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
