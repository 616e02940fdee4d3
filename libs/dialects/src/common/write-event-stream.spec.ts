import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamEvent } from '@rosetta/canonical';
import type { StreamFraming } from '@rosetta/protocols/common';
import { writeEventStream } from './write-event-stream';

/** A framing that writes each event's type, and refuses (throws on) the `usage` event, as one refuses a frame it cannot serialise. */
const refusing: StreamFraming = {
  contentType: 'text/event-stream',
  encode(event) {
    if (event.type === 'usage') throw new RangeError('Maximum call stack size exceeded');
    return event.type === 'error' ? `error: ${event.error.message}\n` : `${event.type}\n`;
  },
};

const EVENTS: StreamEvent[] = [
  { type: 'start', id: 'up', model: 'm', created: 1 },
  { type: 'text-delta', index: 0, text: 'hi' },
  { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } },
  { type: 'finish', finishReason: { unified: 'stop' } },
];

describe('writeEventStream', () => {
  let server: Server;
  let url: string;
  let read: StreamEvent[];

  beforeAll(async () => {
    server = createServer((_req, res) => {
      read = [];
      async function* events(): AsyncGenerator<StreamEvent> {
        for (const event of EVENTS) {
          read.push(event);
          yield event;
        }
      }
      void writeEventStream(res, events(), refusing);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('ends a stream whose event the framing cannot write with the in-stream error, and reads no further', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('start\ntext-delta\nerror: Upstream service error: a stream event could not be relayed\n');
    expect(read.map((e) => e.type)).toEqual(['start', 'text-delta', 'usage']);
  });
});
