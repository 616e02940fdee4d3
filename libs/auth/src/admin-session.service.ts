import { Inject, Injectable } from '@nestjs/common';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { AdminSessionRepository } from './admin-session.repository';
import type { AdminSession, LoginFlow, NewAdminSession } from './admin-session.record';
import { hashSecret, randomToken } from './key-secret';

/** A single sign-on must come back from the identity provider within this. */
const LOGIN_FLOW_TTL_MS = 10 * 60_000;

/**
 * Dashboard sessions: a random id in an HttpOnly cookie, stored only as its SHA-256 in
 * PostgreSQL so every replica accepts it and a sign-out ends it everywhere. A session lasts
 * DASHBOARD_SESSION_HOURS from sign-in (12 by default), then the user signs in again.
 */
@Injectable()
export class AdminSessionService {
  constructor(
    private readonly repository: AdminSessionRepository,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
  ) {}

  /** Starts a session; the returned id goes into the cookie and nowhere else. */
  async start(session: NewAdminSession): Promise<{ id: string; session: AdminSession }> {
    const id = randomToken(32);
    const stored = await this.repository.insert(hashSecret(id), session, new Date(Date.now() + this.config.dashboard.sessionTtlMs));
    return { id, session: stored };
  }

  /**
   * The live session a cookie names; null when unknown, ended or expired, or opened with an admin
   * token other than the current one (`tokenFingerprint`, undefined when there is none).
   */
  async find(id: string, tokenFingerprint: string | undefined): Promise<AdminSession | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(id)) return null;
    return this.repository.findLive(hashSecret(id), tokenFingerprint);
  }

  async end(id: string): Promise<void> {
    await this.repository.delete(hashSecret(id));
  }

  /** "Sign out all sessions": every session on every replica, the caller's too. Returns how many were live. */
  async endAll(): Promise<number> {
    return this.repository.deleteAll();
  }

  /** Remembers a sign-on in progress under a random id (kept in a short-lived cookie). */
  async beginFlow(flow: LoginFlow): Promise<string> {
    const id = randomToken(32);
    await this.repository.insertFlow(hashSecret(id), flow, new Date(Date.now() + LOGIN_FLOW_TTL_MS));
    return id;
  }

  /** The flow a callback belongs to, once; null when unknown, used or older than ten minutes. */
  async takeFlow(id: string): Promise<LoginFlow | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(id)) return null;
    return this.repository.takeFlow(hashSecret(id));
  }
}
