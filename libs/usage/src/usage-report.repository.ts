import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LedgerHoursRepository } from './ledger/ledger-hours.repository';
import { LedgerRollupRepository } from './ledger/ledger-rollup.repository';
import { reportColumns, reportTotals, type UsageDimension, type UsageReportFilter, type UsageReportRow } from './usage-report';
import { groupKey, isLedByDay, type ReportPage, type ReportPageResult } from './usage-report-order';
import { planUsageReport, wholeDays } from './usage-report-plan';
import { reportQuery } from './usage-report-query';
import { runReportStatement } from './report-statement';

/**
 * `GET /admin/usage`'s totals (decision 0027): whole closed days from the daily rollup, closed
 * hours of the last days from the hourly one, the rest of the range (the hour in progress, an hour
 * cut by from/to, anything not rolled up yet) from the raw ledger, merged and grouped once, so the
 * answer equals a report over raw rows alone. Key and team names are joined to the grouped rows.
 */
@Injectable()
export class UsageReportRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rollups: LedgerRollupRepository,
    private readonly hourly: LedgerHoursRepository,
  ) {}

  /** Every group of the report, in its order (for the gateway's own pages: keys, teams, alerts). */
  async report(filter: UsageReportFilter): Promise<UsageReportRow[]> {
    return this.read(filter);
  }

  /** One page of the report: at most `page.limit` groups after `page.after` (decision 0034). */
  async page(filter: UsageReportFilter, page: ReportPage): Promise<ReportPageResult> {
    const rows = await this.read(filter, page);
    const data = rows.slice(0, page.limit);
    return { data, next: rows.length > page.limit ? groupKey(filter.groupBy, data[data.length - 1]!) : null };
  }

  private async read(filter: UsageReportFilter, page?: ReportPage): Promise<UsageReportRow[]> {
    const days = filter.groupBy.includes('hour') ? undefined : wholeDays(filter.from, filter.to);
    const rolledDays = days ? await this.rollups.rolledDays(days.first, days.end) : [];
    const plan = planUsageReport(filter.from, filter.to, rolledDays, await this.hourly.rolledHours(filter.from, filter.to));
    const { sql, params } = reportQuery(filter, plan, page);
    // The column order once per report, not once per row: a whole report may answer ~10^5 rows.
    const columns = reportColumns(filter.groupBy);
    return (await runReportStatement(this.dataSource, sql, params, page !== undefined && isLedByDay(filter.groupBy))).map((row) => reportRow(filter.groupBy, columns, row));
  }
}

function reportRow(groupBy: readonly UsageDimension[], columns: readonly (keyof UsageReportRow)[], row: Record<string, unknown>): UsageReportRow {
  const out = reportTotals(row);
  const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
  for (const dimension of groupBy) {
    if (dimension === 'day') out.day = String(row['day']);
    if (dimension === 'key') Object.assign(out, { api_key_id: text(row['api_key_id']), key_name: text(row['key_name']) });
    if (dimension === 'team') Object.assign(out, { team_id: text(row['team_id']), team_name: text(row['team_name']) });
    if (dimension === 'model') out.served_model = text(row['served_model']);
    if (dimension === 'provider') out.provider = text(row['provider']);
    if (dimension === 'hour') out.hour = String(row['hour']);
  }
  // Dimensions first, in the order asked, then the totals: the JSON reads like the CSV.
  const ordered: Partial<Record<keyof UsageReportRow, unknown>> = {};
  for (const column of columns) ordered[column] = out[column];
  return ordered as unknown as UsageReportRow;
}
