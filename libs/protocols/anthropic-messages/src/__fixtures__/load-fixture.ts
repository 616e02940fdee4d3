/** Test-only helpers: read recorded fixtures, and turn stream events and SSE text into comparable JSON. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function fixtureText(name: string): string {
  return readFileSync(join(__dirname, name), 'utf8');
}

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

export interface SSEEvent {
  event?: string;
  data: unknown;
}

/** A recorded stream: one `{event, data}` per line. */
export function fixtureEvents(name: string): SSEEvent[] {
  return fixtureText(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SSEEvent);
}

/** The SSE bytes of recorded events, as an upstream sends them. */
export function toSSEText(events: SSEEvent[]): string {
  return events.map(({ event, data }) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`).join('');
}

// Shared with the other codecs' fixtures.
export { deserializeEvents, serializeEvents, type SerializedError, type SerializedEvent } from '../../../common/src/__fixtures__/serialized-events';

/**
 * SSE text from the encoder, strictly as written: every frame must be exactly an `event:` line and
 * a `data:` line, and the event name must match the data's `type`.
 */
export function sseFrames(text: string): SSEEvent[] {
  if (text !== '' && !text.endsWith('\n\n')) throw new Error('SSE text does not end with a blank line');
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const match = /^event: ([a-z_]+)\ndata: (.*)$/s.exec(frame);
      if (!match?.[1] || match[2] === undefined || match[2].includes('\n')) throw new Error(`not an event frame: ${frame}`);
      const data = JSON.parse(match[2]) as { type?: unknown };
      if (data.type !== match[1]) throw new Error(`event '${match[1]}' carries data of type '${String(data.type)}'`);
      return { event: match[1], data };
    });
}

/** Fixes `Date.now()` so converted `created` times are comparable; returns the Unix seconds. */
export function freezeNow(seconds = 1730000000): number {
  jest.spyOn(Date, 'now').mockReturnValue(seconds * 1000);
  return seconds;
}
