import { GatewayError } from '@rosetta/canonical';
import { loadConfig, type AppLogger } from '@rosetta/platform';
import type { StoredAnswerRepository } from './stored-answer.repository';
import { StoredAnswersService } from './stored-answers.service';

/** A repository whose database is down (every query refused) or unreachable (every query hangs). */
function repositoryThat(behaviour: 'refuses' | 'hangs'): StoredAnswerRepository {
  const fail = (): Promise<never> => (behaviour === 'refuses' ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : new Promise<never>(() => undefined));
  return { insert: fail, findOwned: fail, deleteOwned: fail, purgeExpired: fail } as unknown as StoredAnswerRepository;
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

describe('StoredAnswersService when the database fails', () => {
  afterEach(() => {
    jest.useRealTimers();
    logged.length = 0;
  });

  it('answers a continuation it cannot load with a 503 the SDKs retry, not a bare 500', async () => {
    const service = new StoredAnswersService(repositoryThat('refuses'), config, logger);
    const unavailable = { type: 'overloaded_error', status: 503, retryable: true };
    expect(await outcome(() => service.load(['resp_a'], 'key-1'))).toEqual(unavailable);
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
    const loading = outcome(() => service.load(['resp_a'], 'key-1'));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await Promise.race([loading, Promise.resolve('still waiting')])).toEqual({ type: 'overloaded_error', status: 503, retryable: true });
  });
});
