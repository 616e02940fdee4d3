import type { StreamEvent } from '@rosetta/canonical';
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
  if (framing.open) await write(res, framing.open);
  for await (const event of events) {
    if (res.destroyed) break;
    if (framing.beforeEnd && (event.type === 'finish' || event.type === 'error')) await framing.beforeEnd(event);
    const text = framing.encode(event);
    if (text) await write(res, text);
  }
  const closing = framing.close?.();
  if (closing && !res.destroyed) await write(res, closing);
  if (!res.writableEnded) res.end();
}

async function write(res: GatewayHttpResponse, text: string): Promise<void> {
  if (!res.write(text)) await drained(res);
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
