import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdminRole, AdminSession, LoginFlow, NewAdminSession, SignInMethod } from './admin-session.record';

interface SessionRow {
  id_hash: string;
  role: AdminRole;
  actor: string;
  method: SignInMethod;
  created_at: Date;
  expires_at: Date;
}

/** The only place that touches admin_sessions and admin_login_flows. */
@Injectable()
export class AdminSessionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(idHash: string, session: NewAdminSession, expiresAt: Date): Promise<AdminSession> {
    // Expired rows go as new ones come: the table holds live sessions only.
    await this.dataSource.query('DELETE FROM admin_sessions WHERE expires_at < now()');
    const rows: SessionRow[] = await this.dataSource.query(
      `INSERT INTO admin_sessions (id_hash, role, actor, method, expires_at, ip, user_agent, token_fingerprint) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING id_hash, role, actor, method, created_at, expires_at`,
      [idHash, session.role, session.actor, session.method, expiresAt, session.ip ?? null, session.userAgent?.slice(0, 500) ?? null, session.tokenFingerprint ?? null],
    );
    return toSession(rows[0]!);
  }

  /** A live session; one opened with the admin token only while that token (its fingerprint) is the current one. */
  async findLive(idHash: string, tokenFingerprint: string | undefined): Promise<AdminSession | null> {
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT id_hash, role, actor, method, created_at, expires_at FROM admin_sessions
       WHERE id_hash = $1 AND expires_at > now() AND (method <> 'token' OR token_fingerprint = $2)`,
      [idHash, tokenFingerprint ?? null],
    );
    return rows[0] ? toSession(rows[0]) : null;
  }

  async delete(idHash: string): Promise<void> {
    await this.dataSource.query('DELETE FROM admin_sessions WHERE id_hash = $1', [idHash]);
  }

  /** Ends every session, token and single sign-on alike; returns how many were live. */
  async deleteAll(): Promise<number> {
    const rows: Array<{ live: number }> = await this.dataSource.query(
      'WITH gone AS (DELETE FROM admin_sessions RETURNING expires_at) SELECT count(*) FILTER (WHERE expires_at > now())::int AS live FROM gone',
    );
    return rows[0]?.live ?? 0;
  }

  async insertFlow(idHash: string, flow: LoginFlow, expiresAt: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM admin_login_flows WHERE expires_at < now()');
    await this.dataSource.query(
      'INSERT INTO admin_login_flows (id_hash, state, nonce, code_verifier, redirect_uri, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [idHash, flow.state, flow.nonce, flow.codeVerifier, flow.redirectUri, expiresAt],
    );
  }

  /** Takes a flow once: a callback replayed finds nothing. */
  async takeFlow(idHash: string): Promise<LoginFlow | null> {
    const result: unknown = await this.dataSource.query(
      'DELETE FROM admin_login_flows WHERE id_hash = $1 RETURNING state, nonce, code_verifier, redirect_uri, expires_at',
      [idHash],
    );
    // node-postgres answers DELETE … RETURNING as [rows, count] through TypeORM.
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{ state: string; nonce: string; code_verifier: string; redirect_uri: string; expires_at: Date }>;
    const row = rows[0];
    if (!row || new Date(row.expires_at).getTime() <= Date.now()) return null;
    return { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, redirectUri: row.redirect_uri };
  }
}

function toSession(row: SessionRow): AdminSession {
  return { idHash: row.id_hash, role: row.role, actor: row.actor, method: row.method, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) };
}
