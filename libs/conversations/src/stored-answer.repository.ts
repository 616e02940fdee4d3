import { Injectable } from '@nestjs/common';
import type { StoredRecord } from '@rosetta/protocols/common';
import { DataSource } from 'typeorm';

/** The only place that touches stored_answers. */
@Injectable()
export class StoredAnswerRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(answer: { id: string; parentId?: string; apiKeyId: string; dialect: string; record: StoredRecord; expiresAt: Date }): Promise<void> {
    const text = JSON.stringify(answer.record);
    await this.dataSource.query(
      'INSERT INTO stored_answers (id, parent_id, api_key_id, dialect, record, bytes, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING',
      [answer.id, answer.parentId ?? null, answer.apiKeyId, answer.dialect, text, Buffer.byteLength(text), answer.expiresAt],
    );
  }

  /**
   * The key's unexpired answers among `ids` and every answer they continue, each once: one
   * recursive query over ids and sizes only, stopped after `limit` answers. The records themselves
   * are read by `findOwned`, once the caller has seen what they weigh.
   */
  async chainSizes(ids: readonly string[], apiKeyId: string, limit: number): Promise<Array<{ id: string; bytes: number }>> {
    return this.dataSource.query(
      `WITH RECURSIVE chain(id, parent_id, bytes) AS (
         SELECT id, parent_id, bytes FROM stored_answers WHERE id = ANY($1::text[]) AND api_key_id = $2 AND expires_at > now()
         UNION
         SELECT s.id, s.parent_id, s.bytes FROM stored_answers s JOIN chain c ON s.id = c.parent_id WHERE s.api_key_id = $2 AND s.expires_at > now()
       )
       SELECT id, bytes FROM chain LIMIT $3`,
      [ids, apiKeyId, limit],
    );
  }

  /** The unexpired answers among `ids` that belong to the key (one query, by primary key). */
  async findOwned(ids: readonly string[], apiKeyId: string): Promise<Map<string, StoredRecord>> {
    const rows: Array<{ id: string; record: StoredRecord | string }> = await this.dataSource.query(
      'SELECT id, record FROM stored_answers WHERE id = ANY($1::text[]) AND api_key_id = $2 AND expires_at > now()',
      [ids, apiKeyId],
    );
    // node-postgres parses jsonb; PGlite's driver may hand it over as text.
    return new Map(rows.map((row) => [row.id, typeof row.record === 'string' ? (JSON.parse(row.record) as StoredRecord) : row.record]));
  }

  async deleteOwned(id: string, apiKeyId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('DELETE FROM stored_answers WHERE id = $1 AND api_key_id = $2 AND expires_at > now() RETURNING id', [id, apiKeyId]);
    return flatRows(rows).length > 0;
  }

  /** Deletes up to `limit` expired answers; how many went. */
  async purgeExpired(limit: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      'DELETE FROM stored_answers WHERE id IN (SELECT id FROM stored_answers WHERE expires_at <= now() LIMIT $1) RETURNING id',
      [limit],
    );
    return flatRows(rows).length;
  }
}

/** TypeORM answers a DELETE … RETURNING as [rows, count] on PostgreSQL and as rows on PGlite. */
function flatRows(result: unknown[]): unknown[] {
  return result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? result[0] : result;
}
