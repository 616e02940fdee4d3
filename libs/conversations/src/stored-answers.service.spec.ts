import { GatewayError } from '@rosetta/canonical';
import { loadConfig, type AppLogger } from '@rosetta/platform';
import type { StoredAnswerRepository } from './stored-answer.repository';
import { StoredAnswersService } from './stored-answers.service';

/** A repository whose database is down (every query refused) or unreachable (every query hangs). */
function repositoryThat(behaviour: 'refuses' | 'hangs'): StoredAnswerRepository {
  const fail = (): Promise<never> => (behaviour === 'refuses' ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : new Promise<never>(() => undefined));
  return { insert: fail, findOwned: fail, chainSizes: fail, deleteOwned: fail, purgeExpired: fail } as unknown as StoredAnswerRepository;
}

const logged: unknown[] = [];
const logger = { error: (entry: unknown) => logged.push(entry), warn: (entry: unknown) => logged.push(entry) } as unknown as AppLogger;
const config = loadConfig({ ADMIN_TOKEN: 'admin-token-for-tests-000000000000' });

async function outcome(run: () => Promise<unknown>): Promise<{ type: string; status: number; retryable: boolean } | 'resolved' | 'not a GatewayError'> {
  try {
    await run();
    return 'resolved';
  } catch (error) {
    return error instanceof GatewayError ? { type: error.type, status: error.status, retryable: error.retryable } : 'not a GatewayError';
  }
}

describe('StoredAnswersService bounds what one request loads', () => {
  /** A repository holding a chain of `count` answers of `bytes` each; records are read only if asked. */
  function chainOf(count: number, bytes: number) {
    const read: string[][] = [];
    const repository = {
      chainSizes: async (_ids: string[], _key: string, limit: number) => Array.from({ length: Math.min(count, limit) }, (_, i) => ({ id: `resp_${i}`, bytes })),
      findOwned: async (ids: string[]) => {
        read.push(ids);
        return new Map(ids.map((id) => [id, { id }]));
      },
    } as unknown as StoredAnswerRepository;
    return { repository, read };
  }

  it('loads a conversation within the bounds, every turn once', async () => {
    const { repository, read } = chainOf(3, 1000);
    expect([...(await new StoredAnswersService(repository, config, logger).load(['resp_0'], 'key-1', 'previous_response_id')).keys()]).toEqual(['resp_0', 'resp_1', 'resp_2']);
    expect(read).toEqual([['resp_0', 'resp_1', 'resp_2']]);
  });

  it.each([
    ['too heavy', 5, config.bodyLimitBytes, `more than ${Math.floor((4 * config.bodyLimitBytes) / 1024 ** 2)} MB`],
    ['too long', 20_000, 10, 'more than 10000 answers'],
  ])('refuses a conversation %s with a 400 naming the field, before reading any record', async (_name, count, bytes, reason) => {
    const { repository, read } = chainOf(count, bytes);
    const refused = new StoredAnswersService(repository, config, logger).load(['resp_0'], 'key-1', 'previous_response_id');
    await expect(refused).rejects.toEqual(expect.objectContaining({ status: 400, param: 'previous_response_id', message: expect.stringContaining(reason) }));
    expect(read).toEqual([]);
  });
});

describe('StoredAnswersService when the database fails', () => {
  afterEach(() => {
    jest.useRealTimers();
    logged.length = 0;
  });

  it('answers a continuation it cannot load with a 503 the SDKs retry, not a bare 500', async () => {
    const service = new StoredAnswersService(repositoryThat('refuses'), config, logger);
    const unavailable = { type: 'overloaded_error', status: 503, retryable: true };
    expect(await outcome(() => service.load(['resp_a'], 'key-1', 'previous_response_id'))).toEqual(unavailable);
    expect(await outcome(() => service.get('resp_a', 'key-1', 'Response'))).toEqual(unavailable);
    expect(await outcome(() => service.delete('resp_a', 'key-1', 'Response'))).toEqual(unavailable);
  });

  it('still lets the answer go out when the database does not answer a write', async () => {
    jest.useFakeTimers();
    const service = new StoredAnswersService(repositoryThat('hangs'), config, logger);
    let settled = false;
    void service.keep({ id: 'resp_a', record: {} }, 'key-1', 'openai-responses').then(() => (settled = true));
    // A dropped connection hangs until TCP gives up (minutes); the answer, already paid for, waits on it.
    await jest.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(true);
    expect(logged).toHaveLength(1);
  });

  it('answers a continuation with a 503 when the database does not answer the read, rather than hanging', async () => {
    jest.useFakeTimers();
    const service = new StoredAnswersService(repositoryThat('hangs'), config, logger);
    const loading = outcome(() => service.load(['resp_a'], 'key-1', 'previous_response_id'));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await Promise.race([loading, Promise.resolve('still waiting')])).toEqual({ type: 'overloaded_error', status: 503, retryable: true });
  });
});
