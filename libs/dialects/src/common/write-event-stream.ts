import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import type { StreamFraming } from '@rosetta/protocols/common';
import type { GatewayHttpResponse } from './http-types';

/**
 * Writes events to the client as they arrive, through a dialect encoder. Nothing is buffered:
 * when the socket is full we wait for `drain`, which holds back the upstream read in turn.
 */
export async function writeEventStream(res: GatewayHttpResponse, events: AsyncIterable<StreamEvent>, framing: StreamFraming): Promise<void> {
  res.statusCode = 200;
  res.setHeader('content-type', framing.contentType);
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('x-accel-buffering', 'no');
  // No flushHeaders(): the first event is already in hand (the executor held it), so the head
  // goes out with it in one write instead of two.
  // A write the socket takes is not awaited: a slow stream's wait for its next event then holds
  // one pending step, not one per write (docs/benchmarks/2026-11-27-stream-memory.md).
  if (framing.open && !res.write(framing.open)) await drained(res);
  let headKept = false;
  for await (const event of events) {
    if (res.destroyed) break;
    if (framing.beforeEnd && (event.type === 'finish' || event.type === 'error')) await framing.beforeEnd(event);
    let text: string;
    let failed = false;
    try {
      text = framing.encode(event);
    } catch {
      text = unrelayable(framing);
      failed = true;
    }
    if (!text && !failed) continue;
    const full = !res.write(text);
    if (!headKept) headKept = compactSentHead(res);
    if (failed) break;
    if (full) await drained(res);
  }
  const closing = framing.close?.();
  if (closing && !res.destroyed && !res.write(closing)) await drained(res);
  if (!res.writableEnded) res.end();
}

/**
 * The dialect's in-stream error for an event the framing could not write (an upstream frame it had
 * to serialise again that JSON.stringify refuses, nested past the stack's depth): the stream ends
 * with it instead of an exception that would cut it without one.
 */
function unrelayable(framing: StreamFraming): string {
  const error = new GatewayError('upstream_error', 'Upstream service error: a stream event could not be relayed', { status: 502 });
  try {
    return framing.encode({ type: 'error', error });
  } catch {
    return '';
  }
}

function drained(res: GatewayHttpResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * Node keeps a response's head after sending it, for the response's life, as it built it: a chain
 * of some sixty string concatenations (a piece per header name, value and separator). Reading a
 * character of it makes V8 flatten the chain in place into one string, and the pieces are freed:
 * about 2 KB less per open stream (docs/benchmarks/2026-11-27-stream-memory.md). Returns whether
 * the head has been sent (and compacted).
 */
function compactSentHead(res: GatewayHttpResponse): boolean {
  const head = (res as unknown as { _header?: unknown })._header;
  if (typeof head !== 'string') return false;
  head.charCodeAt(0);
  return true;
}
