import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { GatewayError, type DialectId } from '@rosetta/canonical';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import type { StoredAnswer, StoredRecord } from '@rosetta/protocols/common';
import { StoredAnswerRepository } from './stored-answer.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const PURGE_BATCH = 5_000;

/**
 * Answers kept server-side for their key (the Responses API's `store`), for the retention the
 * operator sets (RESPONSES_RETENTION_DAYS). Reads and writes happen only for requests that store
 * or continue a conversation; expired answers are invisible at once and purged hourly.
 */
@Injectable()
export class StoredAnswersService implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private readonly retentionMs: number;

  constructor(
    private readonly repository: StoredAnswerRepository,
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    this.retentionMs = config.responsesRetentionDays * DAY_MS;
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The caller's answers among `ids` (others' and expired ones are simply absent). */
  async load(ids: readonly string[], apiKeyId: string): Promise<Map<string, StoredRecord>> {
    if (ids.length === 0) return new Map();
    return this.repository.findOwned(ids, apiKeyId);
  }

  async get(id: string, apiKeyId: string, noun: string): Promise<StoredRecord> {
    const record = (await this.repository.findOwned([id], apiKeyId)).get(id);
    if (!record) throw notFound(noun, id);
    return record;
  }

  async delete(id: string, apiKeyId: string, noun: string): Promise<void> {
    if (!(await this.repository.deleteOwned(id, apiKeyId))) throw notFound(noun, id);
  }

  /**
   * Stores an answer; resolves once it is durable (any replica can read it back). A failure is
   * logged, not thrown: the client still gets its answer, and only continuing from it fails.
   */
  async keep(answer: StoredAnswer, apiKeyId: string, dialect: DialectId): Promise<void> {
    try {
      await this.repository.insert({ ...answer, apiKeyId, dialect, expiresAt: new Date(Date.now() + this.retentionMs) });
    } catch (error) {
      this.logger.error({ answerId: answer.id, err: error instanceof Error ? error.message : String(error) }, 'could not store an answer');
    }
  }

  private async purge(): Promise<void> {
    try {
      while ((await this.repository.purgeExpired(PURGE_BATCH)) === PURGE_BATCH);
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not purge expired answers');
    }
  }
}

function notFound(noun: string, id: string): GatewayError {
  return new GatewayError('not_found_error', `${noun} with id '${id}' not found.`, { param: 'id' });
}
