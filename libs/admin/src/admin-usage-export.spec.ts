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

describe('GET /admin/usage?format=csv', () => {
  /** A report of `pages` pages of two groups each, counting the pages read, with a by-day report for totals. */
  function report(pages: number): { reports: UsageReportRepository; read: () => number } {
    let read = 0;
    const row = (n: number) => ({ day: '2026-11-24', api_key_id: null, key_name: null, served_model: `m${n}`, requests: n, errors: 0, input_tokens: 1, output_tokens: 2, cached_tokens: 0, reasoning_tokens: 0, cost_usd: '0.5', cache_hits: 0, saved_usd: '0' });
    const reports = {
      async page(_filter: unknown, page: { limit: number; after?: string[] }) {
        const index = page.after ? Number(page.after[2]!.slice(1)) / 2 : 0;
        read++;
        expect(page.limit).toBe(10_000);
        return { data: [row(2 * index + 1), row(2 * index + 2)], next: index + 1 < pages ? ['2026-11-24', null, `m${2 * index + 2}`] : null };
      },
    } as unknown as UsageReportRepository;
    return { reports, read: () => read };
  }

  it('reads the first page before answering, then one page ahead of the client at most', async () => {
    const { reports, read } = report(1000);
    const answer = await new AdminUsageController({} as UsageRepository, reports, recorder, attribution).report({ format: 'csv', from: '2026-11-24', to: '2026-11-24' });
    expect(read()).toBe(1);
    const stream = (answer as StreamableFile).getStream() as Readable;
    const chunks = stream[Symbol.asyncIterator]();
    const header = 'day,api_key_id,key_name,served_model,requests,errors,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost_usd,cache_hits,saved_usd\r\n';
    expect((await chunks.next()).value).toBe(`${header}2026-11-24,,,m1,1,0,1,2,0,0,0.5,0,0\r\n2026-11-24,,,m2,2,0,1,2,0,0,0.5,0,0\r\n`);
    await settle();
    expect(read()).toBeLessThanOrEqual(3);
    expect((await chunks.next()).value).toBe('2026-11-24,,,m3,3,0,1,2,0,0,0.5,0,0\r\n2026-11-24,,,m4,4,0,1,2,0,0,0.5,0,0\r\n');
    await settle();
    expect(read()).toBeLessThanOrEqual(4);
    stream.destroy();
  });

  it('ends after the last page with every group once, the header once', async () => {
    const { reports } = report(3);
    const answer = (await new AdminUsageController({} as UsageRepository, reports, recorder, attribution).report({ format: 'csv', from: '2026-11-24', to: '2026-11-24' })) as StreamableFile;
    let body = '';
    for await (const chunk of answer.getStream()) body += chunk as string;
    const lines = body.split('\r\n');
    expect(lines.filter((line) => line.startsWith('day,'))).toHaveLength(1);
    expect(lines.slice(1, -1).map((line) => line.split(',')[3])).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    expect(answer.getHeaders()).toEqual(expect.objectContaining({ type: 'text/csv; charset=utf-8', disposition: 'attachment; filename="rosetta-usage-day-key-model-2026-11-24-to-2026-11-24.csv"' }));
  });
});
