import { randomUUID } from 'node:crypto';

/**
 * An id for a tool call the upstream left unnamed. The client echoes it back with the result, so
 * it only has to be unique; the `call_` prefix matches what OpenAI issues and its SDK synthesises.
 */
export function synthesizeToolCallId(): string {
  return `call_${randomUUID().replace(/-/g, '')}`;
}
