import type { StreamEvent } from '@rosetta/canonical';
import type { GatewayHttpResponse } from './http-types';

/**
 * Writes events to the client as they arrive, through a dialect encoder. Nothing is buffered:
 * when the socket is full we wait for `drain`, which holds back the upstream read in turn.
 */
export async function writeEventStream(
  res: GatewayHttpResponse,
  events: AsyncIterable<StreamEvent>,
  encode: (event: StreamEvent) => string,
  contentType = 'text/event-stream; charset=utf-8',
): Promise<void> {
  res.status(200);
  res.setHeader('content-type', contentType);
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  for await (const event of events) {
    if (res.destroyed) break;
    const text = encode(event);
    if (text && !res.write(text)) await drained(res);
  }
  if (!res.writableEnded) res.end();
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
