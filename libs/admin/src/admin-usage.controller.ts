import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Res, StreamableFile, UseGuards } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { isGatewayRequestId, isStorableText } from '@rosetta/platform';
import {
  AttributionReportRepository, usageCsv, usageTotals, UsageRecorderService, UsageReportRepository, UsageRepository, type UsageReportRow, type UsageTotals,
} from '@rosetta/usage';
import { AdminGuard } from './admin.guard';
import { parseRequestListQuery, type RequestListQuery } from './request-list-query';
import { isBaseReport, parseUsageQuery, type UsageQuery } from './usage-query';

/**
 * After a miss, how long to look again while other replicas write the batches they were just asked
 * to write (each answers within milliseconds): a few hundred ms at most, not a flush interval.
 */
const LOOKUP_RETRY_DELAYS_MS = [20, 40, 80, 160];

interface HeaderSetter {
  setHeader(name: string, value: string): unknown;
}

export interface UsageReport {
  from: string;
  to: string;
  group_by: string[];
  data: UsageReportRow[];
  totals: UsageTotals;
}

/** Support lookups and usage reports from the ledger. */
@Public()
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminUsageController {
  constructor(
    private readonly usage: UsageRepository,
    private readonly reports: UsageReportRepository,
    private readonly recorder: UsageRecorderService,
    private readonly attribution: AttributionReportRepository,
  ) {}

  /**
   * Recent requests, newest first, a page at a time: `next_cursor` names the next (older) page,
   * null on the last. Filters and limits in `parseRequestListQuery`; each row as in the lookup below.
   * With `format=ndjson`, every matching row instead, streamed (see `exportRows`).
   */
  @Get('requests')
  async requests(@Query() query: Record<string, unknown>): Promise<{ data: Record<string, unknown>[]; next_cursor: string | null } | StreamableFile> {
    const filter = parseRequestListQuery(query);
    await this.recorder.flush(); // this replica's requests that just ended are on the first page
    if (filter.format === 'ndjson') return this.exportRows(filter);
    const page = await this.usage.page(filter);
    return { data: page.data, next_cursor: page.nextCursor };
  }

  /**
   * One JSON object per line, newest first, each row as in the lookup below. Pages are read from
   * the ledger as the client takes them (the stream reads one ahead of the response, which pipes
   * with backpressure), so the export holds a page in memory whatever its size, and stops reading
   * when the client goes away.
   */
  private exportRows({ format: _format, limit: _limit, ...conditions }: RequestListQuery): StreamableFile {
    const pages = this.usage.exportPages(conditions);
    async function* lines(): AsyncGenerator<string> {
      for await (const rows of pages) yield rows.map((row) => `${JSON.stringify(row)}\n`).join('');
    }
    return new StreamableFile(Readable.from(lines(), { highWaterMark: 1 }), {
      type: 'application/x-ndjson; charset=utf-8',
      disposition: 'attachment; filename="rosetta-requests.ndjson"',
    });
  }

  /**
   * By the `x-request-id` the gateway answered with: served model, provider, key and team,
   * tokens, cost, latency, status. An id the gateway did not mint is looked up as a caller's own
   * (`client_request_id`): one match is answered like a direct hit, several as `{matches}`.
   * Both are index lookups; only a miss waits, briefly, for rows other replicas still hold.
   */
  @Get('requests/:id')
  async request(@Param('id') id: string): Promise<Record<string, unknown>> {
    // No id holding a NUL was ever recorded, and PostgreSQL cannot compare one: not found, no lookup.
    if (!isStorableText(id)) throw requestNotFound(id);
    const lookup = isGatewayRequestId(id) ? () => this.usage.find(id).then((row) => (row ? [row] : [])) : () => this.usage.findByClientId(id);
    await this.recorder.flush(); // a request that just finished may still be in this replica's batch
    let rows = await lookup();
    if (rows.length === 0) {
      await this.recorder.flushEverywhere();
      for (const delay of LOOKUP_RETRY_DELAYS_MS) {
        rows = await lookup();
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      if (rows.length === 0) rows = await lookup();
    }
    if (rows.length === 1) return rows[0]!;
    if (rows.length > 1) return { client_request_id: id, matches: rows };
    throw requestNotFound(id);
  }

  /**
   * Totals grouped by any of key, team, model, provider, day and hour, and end user or tag, with key
   * and team names and costs as decimal strings; `format=csv` answers a CSV file with a header row.
   * See `parseUsageQuery`. By tag, `totals` are the ledger's (a request with several tags is in
   * several rows, but counts once there).
   */
  @Get('usage')
  async report(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) res: HeaderSetter): Promise<UsageReport | string> {
    const parsed = parseUsageQuery(query);
    await this.recorder.flush();
    const data = isBaseReport(parsed) ? await this.reports.report(parsed) : await this.attribution.report(parsed);
    if (parsed.format === 'csv') {
      // Named by the first and the last day it covers (`to` itself is excluded).
      const day = (date: Date): string => date.toISOString().slice(0, 10);
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="rosetta-usage-${parsed.groupBy.join('-')}-${day(parsed.from)}-to-${day(new Date(parsed.to.getTime() - 1))}.csv"`);
      return usageCsv(parsed.groupBy, data);
    }
    return { from: parsed.from.toISOString(), to: parsed.to.toISOString(), group_by: [...parsed.groupBy], data, totals: await this.totals(parsed, data) };
  }

  /** The rows' sums; by tag, the same range's by day instead (a request with several tags counts once). */
  private async totals(parsed: UsageQuery, data: UsageReportRow[]): Promise<UsageTotals> {
    if (!parsed.groupBy.includes('tag')) return usageTotals(data);
    const { format: _format, ...filter } = parsed;
    return usageTotals(await this.reports.report({ ...filter, groupBy: ['day'] }));
  }
}

function requestNotFound(id: string): GatewayError {
  return new GatewayError('not_found_error', `Request '${id}' not found: the ledger has no request with this id (server x-request-id or the caller's own); a request is recorded when its response ends`);
}
