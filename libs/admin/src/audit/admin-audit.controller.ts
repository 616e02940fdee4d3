import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { AdminGuard } from '../admin.guard';
import type { AuditEntry } from './audit-entry';
import { parseAuditQuery } from './audit-query';
import { AuditService } from './audit.service';

/** `GET /admin/audit`: the audit log, newest first, a page at a time (see parseAuditQuery). */
@Public()
@UseGuards(AdminGuard)
@Controller('admin/audit')
export class AdminAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  async list(@Query() query: Record<string, unknown>): Promise<{ data: AuditEntry[]; next_cursor: string | null }> {
    const parsed = parseAuditQuery(query);
    const data = await this.audit.list(parsed);
    return { data, next_cursor: data.length === parsed.limit ? data[data.length - 1]!.id : null };
  }
}
