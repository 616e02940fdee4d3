import { Injectable } from '@nestjs/common';
import { managerOf } from '@rosetta/persistence';
import { DataSource } from 'typeorm';
import type { AuditEntry, AuditQuery, NewAuditEntry } from './audit-entry';

/** The only place that touches audit_log. */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(entry: NewAuditEntry): Promise<void> {
    await managerOf(this.dataSource).query(
      `INSERT INTO audit_log (actor, role, method, action, target_type, target_id, target_name, details, ip, user_agent, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        entry.actor, entry.role ?? null, entry.method, entry.action, entry.targetType ?? null, entry.targetId ?? null, entry.targetName ?? null,
        entry.details === undefined ? null : JSON.stringify(entry.details), entry.ip ?? null, entry.userAgent ?? null, entry.requestId ?? null,
      ],
    );
  }

  /** Newest first, `limit` entries older than `before`, filtered; keyset paging on the id. */
  async list(query: AuditQuery): Promise<AuditEntry[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (query.before) where.push(`id < $${params.push(query.before)}`);
    if (query.action) where.push(query.action.includes('.') ? `action = $${params.push(query.action)}` : `action LIKE $${params.push(`${query.action}.%`)}`);
    if (query.actor) where.push(`actor ILIKE $${params.push(`%${query.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    if (query.target) where.push(`(target_id = $${params.push(query.target)} OR target_name = $${params.length})`);
    if (query.from) where.push(`at >= $${params.push(query.from)}`);
    if (query.to) where.push(`at < $${params.push(query.to)}`);
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT id::text AS id, at, actor, role, method, action, target_type, target_id, target_name, details, ip, user_agent, request_id
         FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((row) => ({
      ...(row as unknown as AuditEntry),
      at: new Date(row['at'] as string).toISOString(),
      details: typeof row['details'] === 'string' ? (JSON.parse(row['details']) as Record<string, unknown>) : ((row['details'] as Record<string, unknown> | null) ?? null),
    }));
  }
}
