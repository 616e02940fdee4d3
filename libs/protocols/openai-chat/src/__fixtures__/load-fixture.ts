/** Test-only helpers: read recorded fixtures, and turn stream events into comparable JSON. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function fixtureText(name: string): string {
  return readFileSync(join(__dirname, name), 'utf8');
}

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** One JSON value per line; `[DONE]` lines stay strings. */
export function fixtureLines(name: string): unknown[] {
  return fixtureText(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (line === '[DONE]' ? line : (JSON.parse(line) as unknown)));
}

// Shared with the other codecs' fixtures.
export { deserializeEvents, serializeEvents, type SerializedError, type SerializedEvent } from '../../../common/src/__fixtures__/serialized-events';

/** The `data:` payloads of SSE text produced by the encoder, split on blank lines. */
export function sseDataFrames(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      if (!frame.startsWith('data: ')) throw new Error(`not a data frame: ${frame}`);
      const data = frame.slice('data: '.length);
      return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
    });
}
