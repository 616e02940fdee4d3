import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { GatewayError, type DialectId } from '@rosetta/canonical';
import { APP_LOGGER, isStorableText, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import type { StoredAnswer, StoredRecord } from '@rosetta/protocols/common';
import { StoredAnswerRepository } from './stored-answer.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const PURGE_BATCH = 5_000;
/**
 * How long a request waits on the table. The pool has no time-out of its own, and a database
 * that stops answering (a dropped connection) would otherwise hold the request until TCP gives up.
 */
export const STORAGE_TIMEOUT_MS = 5_000;
/** Most answers one request may load (a conversation's turns and the answers it refers to). */
export const MAX_LOADED_ANSWERS = 10_000;

/**
 * Answers kept server-side for their key (the Responses API's `store`), for the retention the
 * operator sets (RESPONSES_RETENTION_DAYS). Reads and writes happen only for requests that store
 * or continue a conversation; expired answers are invisible at once and purged hourly.
 */
@Injectable()
export class StoredAnswersService implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private readonly retentionMs: number;
  /** Most bytes of stored answers one request may load: four request bodies' worth. */
  private readonly maxLoadBytes: number;

  constructor(
    private readonly repository: StoredAnswerRepository,
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    this.retentionMs = config.responsesRetentionDays * DAY_MS;
    this.maxLoadBytes = 4 * config.bodyLimitBytes;
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * The caller's answers among `ids` and every answer they continue (others' and expired ones are
   * simply absent). What a request loads is bounded before it is loaded: a conversation larger
   * than four request bodies, or of more than MAX_LOADED_ANSWERS turns, is a 400 naming the field
   * that continues it (`param`), never a request that holds gigabytes.
   */
  async load(ids: readonly string[], apiKeyId: string, param: string): Promise<Map<string, StoredRecord>> {
    // An id PostgreSQL cannot compare (a NUL) names no stored answer: absent, not a database error.
    const storable = ids.filter(isStorableText);
    if (storable.length === 0) return new Map();
    return this.reading(async () => {
      const chain = await this.repository.chainSizes(storable, apiKeyId, MAX_LOADED_ANSWERS + 1);
      const bytes = chain.reduce((sum, answer) => sum + Number(answer.bytes), 0);
      if (chain.length > MAX_LOADED_ANSWERS || bytes > this.maxLoadBytes) {
        throw GatewayError.invalidRequest(
          `The stored conversation continued here is too large to load (more than ${chain.length > MAX_LOADED_ANSWERS ? `${MAX_LOADED_ANSWERS} answers` : `${Math.floor(this.maxLoadBytes / 1024 ** 2)} MB`}); start a new one, or send its items in 'input'.`,
          param,
        );
      }
      return this.repository.findOwned(chain.map((answer) => answer.id), apiKeyId);
    });
  }

  async get(id: string, apiKeyId: string, noun: string): Promise<StoredRecord> {
    if (!isStorableText(id)) throw notFound(noun, id);
    const record = (await this.reading(() => this.repository.findOwned([id], apiKeyId))).get(id);
    if (!record) throw notFound(noun, id);
    return record;
  }

  async delete(id: string, apiKeyId: string, noun: string): Promise<void> {
    if (!isStorableText(id)) throw notFound(noun, id);
    if (!(await this.reading(() => this.repository.deleteOwned(id, apiKeyId)))) throw notFound(noun, id);
  }

  /**
   * Stores an answer; resolves once it is durable (any replica can read it back). A failure is
   * logged, not thrown: the client still gets its answer, and only continuing from it fails.
   */
  async keep(answer: StoredAnswer, apiKeyId: string, dialect: DialectId): Promise<void> {
    try {
      await withinTimeout(this.repository.insert({ ...answer, apiKeyId, dialect, expiresAt: new Date(Date.now() + this.retentionMs) }));
    } catch (error) {
      this.logger.error({ answerId: answer.id, err: error instanceof Error ? error.message : String(error) }, 'could not store an answer');
    }
  }

  /** A query a request waits on: the database down or silent is a 503 the SDKs retry, not a 500 or a hang. */
  private async reading<T>(query: () => Promise<T>): Promise<T> {
    try {
      return await withinTimeout(query());
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'could not read stored answers');
      throw new GatewayError('overloaded_error', 'Stored answers cannot be read right now; try again shortly.', { retryable: true, retryAfterMs: 1_000 });
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

function withinTimeout<T>(query: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${STORAGE_TIMEOUT_MS} ms`)), STORAGE_TIMEOUT_MS);
  });
  return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
}
