import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, StreamableFile, UseGuards } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { isGatewayRequestId, isStorableText } from '@rosetta/platform';
import {
  AttributionReportRepository, usageCsvHeader, usageCsvRows, usageTotals, UsageRecorderService, UsageReportRepository, UsageRepository,
  type GroupKey, type ReportPageResult, type UsageReportRow, type UsageTotals,
} from '@rosetta/usage';
import { AdminGuard } from './admin.guard';
import { parseRequestListQuery, type RequestListQuery } from './request-list-query';
import { encodeUsageCursor } from './usage-cursor';
import { exportPages } from './usage-export';
import { isBaseReport, parseUsageQuery, USAGE_MAX_LIMIT, type UsageQuery } from './usage-query';

/**
 * After a miss, how long to look again while other replicas write the batches they were just asked
 * to write (each answers within milliseconds): a few hundred ms at most, not a flush interval.
 */
const LOOKUP_RETRY_DELAYS_MS = [20, 40, 80, 160];

/** Groups the CSV export reads at a time: the largest page. */
const CSV_BATCH = USAGE_MAX_LIMIT;

export interface UsageReport {
  from: string;
  to: string;
  group_by: string[];
  data: UsageReportRow[];
  /** Of the whole report, every page alike. */
  totals: UsageTotals;
  has_more: boolean;
  /** The `cursor` of the next page; null on the last. */
  next_cursor: string | null;
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
   * and team names and costs as decimal strings, a page at a time (decision 0034): the groups in a
   * fixed order (newest day or hour first, then the dimensions ascending, null last), `limit` of
   * them, `next_cursor` naming the next page; `totals` are the whole report's. `format=csv` is the
   * export of every group with a header row, streamed. See `parseUsageQuery`.
   */
  @Get('usage')
  async report(@Query() query: Record<string, unknown>): Promise<UsageReport | StreamableFile> {
    const parsed = parseUsageQuery(query);
    await this.recorder.flush();
    if (parsed.format === 'csv') return this.exportCsv(parsed);
    const [page, totals] = await Promise.all([this.page(parsed, parsed.limit, parsed.after), this.totals(parsed)]);
    return {
      from: parsed.from.toISOString(),
      to: parsed.to.toISOString(),
      group_by: [...parsed.groupBy],
      data: page.data,
      totals,
      has_more: page.next !== null,
      next_cursor: page.next && encodeUsageCursor({ ...reportOf(parsed), after: page.next }),
    };
  }

  private page(parsed: UsageQuery, limit: number, after: GroupKey | undefined, window: { from: Date; to: Date } = parsed): Promise<ReportPageResult> {
    const filter = { ...reportOf(parsed), from: window.from, to: window.to };
    const page = { limit, ...(after ? { after } : {}) };
    return isBaseReport(parsed) ? this.reports.page({ ...filter, groupBy: parsed.groupBy }, page) : this.attribution.page(filter, page);
  }

  /**
   * Every group, as CSV, read in pages of 10,000 (see exportPages) as the client takes them (the
   * stream reads one ahead of the response, which pipes with backpressure): memory holds a page
   * whatever the export's size, and reading stops when the client goes away. The first page is
   * read before the answer starts, so a failure there is an error status, not a cut file. Each
   * page is exact as of its own statement; a group never appears twice.
   */
  private async exportCsv(parsed: UsageQuery): Promise<StreamableFile> {
    const pages = exportPages(parsed.groupBy, parsed, CSV_BATCH, (window, limit, after) => this.page(parsed, limit, after, window));
    const first = await pages.next();
    const groupBy = parsed.groupBy;
    async function* lines(): AsyncGenerator<string> {
      yield usageCsvHeader(groupBy) + (first.done ? '' : usageCsvRows(groupBy, first.value.data));
      for await (const page of pages) yield usageCsvRows(groupBy, page.data);
    }
    // Named by the first and the last day it covers (`to` itself is excluded).
    const day = (date: Date): string => date.toISOString().slice(0, 10);
    return new StreamableFile(Readable.from(lines(), { highWaterMark: 1 }), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="rosetta-usage-${groupBy.join('-')}-${day(parsed.from)}-to-${day(new Date(parsed.to.getTime() - 1))}.csv"`,
    });
  }

  /**
   * The whole report's sums, the same on every page: its range by day, from the smallest rollup
   * copy (a request counts once, even by tag, where it is in each of its tags' rows).
   */
  private async totals(parsed: UsageQuery): Promise<UsageTotals> {
    return usageTotals(await this.reports.report({ ...reportOf(parsed), groupBy: ['day'] }));
  }
}

/** The report a query names, without its page or format. */
function reportOf(parsed: UsageQuery): { groupBy: UsageQuery['groupBy']; from: Date; to: Date; apiKeyId?: string; teamId?: string } {
  return { groupBy: parsed.groupBy, from: parsed.from, to: parsed.to, ...(parsed.apiKeyId ? { apiKeyId: parsed.apiKeyId } : {}), ...(parsed.teamId ? { teamId: parsed.teamId } : {}) };
}

function requestNotFound(id: string): GatewayError {
  return new GatewayError('not_found_error', `Request '${id}' not found: the ledger has no request with this id (server x-request-id or the caller's own); a request is recorded when its response ends`);
}
