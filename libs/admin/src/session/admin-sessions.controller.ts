import { Controller, Delete, Req, Res, UseGuards } from '@nestjs/common';
import { AdminSessionService, Public } from '@rosetta/auth';
import { AdminGuard } from '../admin.guard';
import { AuditService } from '../audit/audit.service';
import type { AdminRequest } from './admin-actor';
import { clearSessionCookie, type HeaderWriter } from './session-cookie';

/**
 * "Sign out all sessions": every dashboard session on every replica ends, the caller's included —
 * after a token leaked, a laptop went missing, or someone left. Admins only (the guard refuses a
 * viewer's change); a bearer caller (the CLI, a script) may do it too.
 */
@Public()
@UseGuards(AdminGuard)
@Controller('admin/sessions')
export class AdminSessionsController {
  constructor(
    private readonly sessions: AdminSessionService,
    private readonly audit: AuditService,
  ) {}

  @Delete()
  async signOutAll(@Req() req: AdminRequest, @Res({ passthrough: true }) res: HeaderWriter): Promise<{ signed_out: number }> {
    const signedOut = await this.sessions.endAll();
    await this.audit.record(req, req.adminActor!, 'session.sign_out_all', undefined, { sessions: signedOut });
    clearSessionCookie(req, res);
    return { signed_out: signedOut };
  }
}
