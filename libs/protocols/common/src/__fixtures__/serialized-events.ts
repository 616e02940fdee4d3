/** Test-only: stream events as comparable JSON (errors reduced to what a client sees), shared by every codec's fixtures. */
import { GatewayError, type GatewayErrorType, type StreamEvent } from '@rosetta/canonical';

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
