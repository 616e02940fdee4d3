import type { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';
import type { AttributionReportRepository, UsageRecorderService, UsageReportRepository, UsageRepository } from '@rosetta/usage';
import { AdminUsageController } from './admin-usage.controller';

/** A ledger of `pages` pages of two rows each, counting the pages read. */
function ledger(pages: number): { usage: UsageRepository; read: () => number } {
  let read = 0;
  const usage = {
    async *exportPages() {
      for (let page = 0; page < pages; page++) {
        read++;
        yield [{ request_id: `req_${page}a` }, { request_id: `req_${page}b` }];
      }
    },
  } as unknown as UsageRepository;
  return { usage, read: () => read };
}

const recorder = { flush: async () => undefined } as unknown as UsageRecorderService;
const reports = {} as UsageReportRepository;
const attribution = {} as AttributionReportRepository;

/** Lets every pending callback and stream tick run: nothing more can happen without a reader. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('GET /admin/requests?format=ndjson', () => {
  it('reads the ledger only as fast as the response takes it: one page ahead at most', async () => {
    const { usage, read } = ledger(1000);
    const answer = await new AdminUsageController(usage, reports, recorder, attribution).requests({ format: 'ndjson' });
    expect(answer).toBeInstanceOf(StreamableFile);
    const stream = (answer as StreamableFile).getStream() as Readable;
    const chunks = stream[Symbol.asyncIterator]();
    expect((await chunks.next()).value).toBe('{"request_id":"req_0a"}\n{"request_id":"req_0b"}\n');
    await settle();
    expect(read()).toBeLessThanOrEqual(3);
    expect((await chunks.next()).value).toBe('{"request_id":"req_1a"}\n{"request_id":"req_1b"}\n');
    await settle();
    expect(read()).toBeLessThanOrEqual(4);
    stream.destroy();
  });

  it('ends after the last page, every line a JSON object', async () => {
    const { usage } = ledger(3);
    const stream = ((await new AdminUsageController(usage, reports, recorder, attribution).requests({ format: 'ndjson' })) as StreamableFile).getStream();
    let body = '';
    for await (const chunk of stream) body += chunk as string;
    expect(body.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(['0a', '0b', '1a', '1b', '2a', '2b'].map((id) => ({ request_id: `req_${id}` })));
  });
});
