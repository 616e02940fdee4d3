import type { Readable } from 'node:stream';

/**
 * A streamed upstream body's chunks, read with one promise per wait for data. Node's own
 * async iterator over a Readable is an async generator: every wait between two chunks of a slow
 * stream holds a generator request, its promise and an awaited promise with its reactions, which
 * outlive a young-generation collection, are promoted, and become old-generation garbage; with
 * thousands of slow streams that garbage, not the streams, set the heap's size
 * (docs/benchmarks/2026-11-27-stream-memory.md). Semantics follow Node's iterator: chunks in
 * order, the stream's error thrown, a close before the end thrown as a premature close, and the
 * stream destroyed when the reader stops early.
 */
export function bodyChunks(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return isReadable(body) ? { [Symbol.asyncIterator]: () => new ReadableChunks(body) } : body;
}

function isReadable(body: unknown): body is Readable {
  return typeof (body as Readable).read === 'function' && typeof (body as Readable).on === 'function' && typeof (body as Readable).destroy === 'function';
}

class ReadableChunks implements AsyncIterator<Uint8Array> {
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: unknown;
  private readonly arm = (resolve: () => void): void => {
    this.wake = resolve;
  };

  constructor(private readonly stream: Readable) {
    const wake = (): void => {
      const resolve = this.wake;
      this.wake = undefined;
      resolve?.();
    };
    stream.on('readable', wake);
    stream.on('end', () => {
      this.ended = true;
      wake();
    });
    stream.on('error', (error: unknown) => {
      this.failure ??= error;
      wake();
    });
    stream.on('close', () => {
      if (!this.ended && this.failure === undefined) this.failure = prematureClose();
      wake();
    });
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      const chunk = this.stream.destroyed ? null : (this.stream.read() as Uint8Array | null);
      if (chunk !== null) return { value: chunk, done: false };
      if (this.ended || this.stream.readableEnded) return { value: undefined, done: true };
      if (this.stream.destroyed) {
        this.failure = this.stream.errored ?? prematureClose();
        continue;
      }
      await new Promise<void>(this.arm);
    }
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.ended) this.stream.destroy();
    return Promise.resolve({ value: undefined, done: true });
  }
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
