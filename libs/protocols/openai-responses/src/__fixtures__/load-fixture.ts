/** Test-only: recorded Responses fixtures, read from this folder. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(join(__dirname, name), 'utf8')) as T;
}

/** One JSON event per line. */
export function fixtureEvents(name: string): unknown[] {
  return readFileSync(join(__dirname, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export { serializeEvents, type SerializedEvent } from '../../../common/src/__fixtures__/serialized-events';
