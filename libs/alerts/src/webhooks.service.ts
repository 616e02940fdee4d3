import { Inject, Injectable } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { vetUpstreamUrl } from '@rosetta/providers';
import { ROSETTA_CONFIG, SECRET_BOX, type RosettaConfig, type SecretBox } from '@rosetta/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AlertEventName } from './alert-event';
import { WebhookRepository, type WebhookRecord } from './webhook.repository';

export interface NewWebhook {
  url: string;
  events: AlertEventName[];
  /** Absent: one is generated and returned once. */
  secret?: string;
}

/** What creating a webhook answers: the record, and the secret when it was generated here. */
export interface CreatedWebhook {
  webhook: WebhookRecord;
  generatedSecret?: string;
}

/**
 * Alert webhooks for the admin API: a URL to a private or loopback address is refused unless its
 * host is in WEBHOOK_ALLOW_HOSTS (the same guard as caller-chosen upstreams, with the operator's
 * webhook list), and the signing secret is stored sealed, so a shared PostgreSQL needs SECRETS_KEY.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repository: WebhookRepository,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
  ) {}

  async create(input: NewWebhook): Promise<CreatedWebhook> {
    // Refused before anything is stored; the URL is vetted again at every delivery.
    await vetUpstreamUrl(input.url, { allowHosts: this.config.webhookAllowHosts, param: 'url' });
    if (!this.secrets.canSeal) {
      throw GatewayError.invalidRequest(
        'Storing a webhook needs SECRETS_KEY (32 random bytes, e.g. `openssl rand -base64 32`, the same on every replica) to encrypt its signing secret',
        'secret',
      );
    }
    const generatedSecret = input.secret === undefined ? `whsec_${randomBytes(32).toString('base64url')}` : undefined;
    const webhook = await this.repository.insert({ id: randomUUID(), url: input.url, events: [...new Set(input.events)], secret: input.secret ?? generatedSecret! });
    return { webhook, generatedSecret };
  }

  list(): Promise<WebhookRecord[]> {
    return this.repository.list();
  }

  async delete(id: string): Promise<void> {
    const found = UUID.test(id) && (await this.repository.delete(id));
    if (!found) throw new GatewayError('not_found_error', `Webhook '${id}' not found`);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
