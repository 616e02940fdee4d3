import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards, UseInterceptors } from '@nestjs/common';
import { WebhooksService, type AlertEventName, type WebhookRecord } from '@rosetta/alerts';
import { Public } from '@rosetta/auth';
import { validateBody } from '@rosetta/platform';
import { AdminGuard } from './admin.guard';
import { auditChange, Audited, AuditInterceptor } from './audit/audit.interceptor';
import type { AdminRequest } from './session/admin-actor';
import { CreateWebhookDto } from './webhook.dto';

/** `masked`: for viewers, who see the settings but not the credentials in them. */
function presentWebhook(webhook: WebhookRecord, masked = false): Record<string, unknown> {
  return { id: webhook.id, url: masked ? auditedUrl(webhook.url) : webhook.url, events: webhook.events, created_at: webhook.createdAt.toISOString(), last_delivery: webhook.lastDelivery };
}

/**
 * A URL as the audit log and viewers see it: its origin only. A webhook's path is often its
 * credential (Slack's incoming webhooks), and the audit log is readable by viewers.
 */
function auditedUrl(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '[invalid]';
  }
}

/** Alert webhooks: add, list (never the secret), remove (ARCHITECTURE §9 "Governance"). */
@Public()
@UseGuards(AdminGuard)
@UseInterceptors(AuditInterceptor)
@Controller('admin/webhooks')
export class AdminWebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @Audited('webhook.create', 'webhook')
  async create(@Body() body: unknown): Promise<Record<string, unknown>> {
    const dto = validateBody(CreateWebhookDto, body, { rejectUnknown: true });
    auditChange({ url: auditedUrl(dto.url), events: dto.events, secret_source: dto.secret === undefined ? 'generated' : 'given' });
    const created = await this.webhooks.create({ url: dto.url, events: dto.events as AlertEventName[], secret: dto.secret });
    // The secret is shown once, and only when the gateway made it: a caller who sent one has it.
    return { ...presentWebhook(created.webhook), ...(created.generatedSecret ? { secret: created.generatedSecret } : {}) };
  }

  @Get()
  async list(@Req() req: AdminRequest): Promise<Record<string, unknown>[]> {
    const masked = req.adminActor?.role !== 'admin';
    return (await this.webhooks.list()).map((webhook) => presentWebhook(webhook, masked));
  }

  @Delete(':id')
  @Audited('webhook.delete', 'webhook')
  async remove(@Param('id') id: string): Promise<Record<string, unknown>> {
    await this.webhooks.delete(id);
    return { id, deleted: true };
  }
}
