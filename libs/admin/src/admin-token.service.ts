import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { hashSecret, randomToken } from '@rosetta/auth';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { timingSafeEqual } from 'node:crypto';
import { SettingRepository } from './setting.repository';

const SETTING = 'admin_token_sha256';

/**
 * The admin bearer token: ADMIN_TOKEN when set; otherwise one generated on the first start, whose
 * hash is stored so that every replica and every restart accepts it. It is printed exactly once.
 */
@Injectable()
export class AdminTokenService implements OnModuleInit {
  private expectedHash?: Buffer;

  constructor(
    private readonly settings: SettingRepository,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.adminToken) {
      this.expectedHash = Buffer.from(hashSecret(this.config.adminToken), 'hex');
      return;
    }
    const candidate = `rat_${randomToken(24)}`;
    const stored = await this.settings.setIfAbsent(SETTING, hashSecret(candidate));
    this.expectedHash = Buffer.from(stored, 'hex');
    if (stored === hashSecret(candidate)) {
      // Shown once, on stderr, never through the structured log.
      process.stderr.write(
        `\n  ADMIN_TOKEN was not set, so Rosetta generated one. It is shown only this once:\n\n` +
          `      ${candidate}\n\n` +
          `  Create an API key with:\n` +
          `      ADMIN_TOKEN=${candidate} npm run admin -- keys create --plan free --name me\n\n`,
      );
    } else {
      this.logger.info('admin token: using the one generated on first start (set ADMIN_TOKEN to replace it)');
    }
  }

  verify(presented: string): boolean {
    if (!this.expectedHash) return false;
    const hash = Buffer.from(hashSecret(presented), 'hex');
    return hash.length === this.expectedHash.length && timingSafeEqual(hash, this.expectedHash);
  }
}
