import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { UsageRecorderService, UsageRepository, type UsageAggregate } from '@rosetta/usage';
import { AdminGuard } from './admin.guard';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;
/** Replicas write their batches every second. */
const LOOKUP_WAIT_MS = 2_000;
const LOOKUP_POLL_MS = 250;

function date(value: unknown, name: string, fallback: Date): Date {
  if (value === undefined) return fallback;
  const parsed = typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(parsed.getTime())) throw GatewayError.invalidRequest(`${name} must be an ISO 8601 date or date-time`, name);
  return parsed;
}

/** Support lookups and usage reports from the ledger. */
@Public()
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminUsageController {
  constructor(
    private readonly usage: UsageRepository,
    private readonly recorder: UsageRecorderService,
  ) {}

  /** By the `x-request-id` a caller quotes: served model, provider, tokens, cost, latency, status. */
  @Get('requests/:id')
  async request(@Param('id') id: string): Promise<Record<string, unknown>> {
    await this.recorder.flush(); // a request that just finished may still be in this replica's batch
    // ...or in another replica's, written within a second: wait that long before saying no.
    for (let waited = 0; ; waited += LOOKUP_POLL_MS) {
      const row = await this.usage.find(id);
      if (row) return { ...row, cost_usd: Number(row['cost_usd']) };
      if (waited >= LOOKUP_WAIT_MS) throw new GatewayError('not_found_error', `Request '${id}' not found`);
      await new Promise((resolve) => setTimeout(resolve, LOOKUP_POLL_MS));
    }
  }

  /** Totals per day, key and served model; `from`/`to` default to the last 7 days; `key_id` filters. */
  @Get('usage')
  async report(@Query() query: Record<string, unknown>): Promise<{ from: string; to: string; data: UsageAggregate[] }> {
    const to = date(query['to'], 'to', new Date());
    const from = date(query['from'], 'from', new Date(to.getTime() - 7 * DAY_MS));
    const keyId = query['key_id'];
    if (keyId !== undefined && (typeof keyId !== 'string' || !UUID.test(keyId))) throw GatewayError.invalidRequest('key_id must be a key id (UUID)', 'key_id');
    await this.recorder.flush();
    const data = await this.usage.aggregate({ from, to, apiKeyId: keyId as string | undefined });
    return { from: from.toISOString(), to: to.toISOString(), data };
  }
}
