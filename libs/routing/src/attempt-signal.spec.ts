import { AbortLine } from '@rosetta/providers';
import { attemptSignal } from './attempt-signal';
import { ServerStop } from './server-stop';

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

describe('attemptSignal and a forced stop of the gateway', () => {
  it('ends a running attempt with the shutdown error, and leaves released ones alone', () => {
    const stop = new ServerStop();
    const running = attemptSignal(new AbortLine(), 60_000, stop);
    const released = attemptSignal(new AbortLine(), 60_000, stop);
    released.release();
    expect(stop.stop()).toBe(1);
    expect(running.signal.aborted).toBe(true);
    expect(running.signal.reason).toMatchObject({ type: 'overloaded_error', status: 503, code: 'server_shutdown', local: true });
    expect(released.signal.aborted).toBe(false);
  });

  it('starts no attempt once the stop came', () => {
    const stop = new ServerStop();
    stop.stop();
    const late = attemptSignal(new AbortLine(), 60_000, stop);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toMatchObject({ code: 'server_shutdown' });
  });
});
