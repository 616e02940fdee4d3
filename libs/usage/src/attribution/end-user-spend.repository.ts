import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * What one end user of a key spent since a time (decision 0033): the ledger's end-user index (the
 * key's id and the cost are in it), plus the end-user rollup of the days whose rows went to
 * retention, as UsageRepository.spentSince does for keys and teams. Read once per end user and
 * budget period, when its counter is first used (or Redis lost it), never per request.
 */
@Injectable()
export class EndUserSpendRepository {
  constructor(private readonly dataSource: DataSource) {}

  async spentSince(apiKeyId: string, endUser: string, since: Date): Promise<number> {
    const rows: { spent: string | null }[] = await this.dataSource.query(
      `SELECT ((SELECT coalesce(sum(cost_usd), 0) FROM request_log WHERE end_user = $2 AND api_key_id = $1 AND created_at >= $3)
             + (SELECT coalesce(sum(d.cost_usd), 0) FROM request_log_daily_end_user d
                 WHERE d.api_key_id = $1 AND d.end_user = $2 AND d.day >= ($3::timestamptz AT TIME ZONE 'UTC')::date
                   AND d.day IN (SELECT day FROM request_log_days WHERE dropped)))::text AS spent`,
      [apiKeyId, endUser, since],
    );
    return Number(rows[0]?.spent ?? 0);
  }
}
