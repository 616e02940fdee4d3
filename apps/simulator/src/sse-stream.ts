import type { ServerResponse } from 'node:http';
import { aborted, pause, writeWithBackpressure } from './http-io';

/**
 * One frame, already serialised by a protocol module: an SSE event, or a piece of a streamed JSON
 * array (Gemini without `alt=sse`). `tokens > 0` marks a content chunk: it is paced and counted
 * for stream faults. `open` frames (before content) never trigger faults; a `close` frame lets a
 * fault set beyond the content fire before it.
 */
export interface StreamFrame {
  data: string;
  tokens: number;
  phase: 'open' | 'body' | 'close';
}

export interface StreamFaults {
  /** After this many content chunks, write the error frame and end the response. */
  errorAfterChunks?: number;
  /** After this many content chunks, destroy the socket. */
  dropAfterChunks?: number;
}

export interface StreamProgram {
  frames: readonly StreamFrame[];
  /**
   * Serialised in-stream error in the protocol's own format; a function receives how many frames
   * were written before it (a JSON-array stream needs a comma only after an element).
   */
  errorFrame: string | ((framesWritten: number) => string);
  faults: StreamFaults;
  tokensPerSecond: number;
  headers?: Record<string, string>;
}

type Fault = 'error' | 'drop' | undefined;

/** A fault set beyond the content still fires, just before the closing frames. */
function dueFault(faults: StreamFaults, written: number, phase: StreamFrame['phase']): Fault {
  if (phase === 'open') return undefined;
  const due = (limit: number | undefined): boolean =>
    limit !== undefined && (written >= limit || phase === 'close');
  if (due(faults.dropAfterChunks)) return 'drop';
  if (due(faults.errorAfterChunks)) return 'error';
  return undefined;
}

/**
 * Writes the frames with pacing, back-pressure and fault injection. Stops at once when the
 * client disconnects: every wait observes `signal`, which the server aborts on 'close'.
 */
export async function playStream(res: ServerResponse, signal: AbortSignal, program: StreamProgram): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...program.headers,
  });
  res.flushHeaders();
  let written = 0;
  let framesWritten = 0;
  let lastFlush: Promise<void> = Promise.resolve();
  for (const frame of program.frames) {
    const fault = dueFault(program.faults, written, frame.phase);
    if (fault === 'drop') {
      // Destroying discards unsent bytes; wait until the frames already written are on the wire.
      await Promise.race([lastFlush, aborted(signal)]);
      res.socket?.destroy();
      return;
    }
    if (fault === 'error') {
      const errorFrame = typeof program.errorFrame === 'string' ? program.errorFrame : program.errorFrame(framesWritten);
      if (await writeWithBackpressure(res, errorFrame, signal)) res.end();
      return;
    }
    if (frame.tokens > 0 && program.tokensPerSecond > 0) {
      if (!(await pause((frame.tokens * 1000) / program.tokensPerSecond, signal))) return;
    }
    let markFlushed = (): void => undefined;
    lastFlush = new Promise((resolve) => (markFlushed = resolve));
    if (!(await writeWithBackpressure(res, frame.data, signal, markFlushed))) return;
    framesWritten += 1;
    if (frame.tokens > 0) written += 1;
  }
  res.end();
}
