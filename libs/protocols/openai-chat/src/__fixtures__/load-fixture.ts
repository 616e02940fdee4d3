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

/** One JSON value per line; `[DONE]` lines stay strings. */
export function fixtureLines(name: string): unknown[] {
  return fixtureText(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (line === '[DONE]' ? line : (JSON.parse(line) as unknown)));
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
