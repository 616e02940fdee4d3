import { AbortLine } from '@rosetta/providers';
import { attemptSignal } from './attempt-signal';

describe('attemptSignal', () => {
  it('aborts with the client’s reason when the client goes away', () => {
    const client = new AbortLine();
    const attempt = attemptSignal(client, 60_000);
    client.abort(new Error('gone'));
    expect(attempt.signal.aborted).toBe(true);
    expect((attempt.signal.reason as Error).message).toBe('gone');
  });

  it('aborts with a TimeoutError when the total time runs out', async () => {
    const attempt = attemptSignal(new AbortLine(), 20);
    await new Promise((resolve) => attempt.signal.once('abort', resolve));
    expect((attempt.signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('is no longer tied to the client or the clock once released', async () => {
    const client = new AbortLine();
    const attempt = attemptSignal(client, 20);
    attempt.release();
    attempt.release();
    client.abort();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(attempt.signal.aborted).toBe(false);
  });

  it('aborts by hand, and starts aborted when the client already left', () => {
    const attempt = attemptSignal(new AbortLine(), 60_000);
    attempt.abort();
    expect(attempt.signal.aborted).toBe(true);
    expect((attempt.signal.reason as DOMException).name).toBe('AbortError');

    const gone = new AbortLine();
    gone.abort(new Error('left'));
    const late = attemptSignal(gone, 60_000);
    expect(late.signal.aborted).toBe(true);
    expect((late.signal.reason as Error).message).toBe('left');
  });
});

describe('AbortLine', () => {
  it('aborts once, with an AbortError unless given a reason, and tells its listeners', () => {
    const line = new AbortLine();
    const heard = jest.fn();
    line.once('abort', heard);
    line.abort();
    line.abort(new Error('again'));
    expect(heard).toHaveBeenCalledTimes(1);
    expect(line.aborted).toBe(true);
    expect((line.reason as DOMException).name).toBe('AbortError');
  });
});
