import type { ServerResponse } from 'node:http';
import { sendPart } from './fault-injection';
import { aborted, pause, writeWithBackpressure } from './http-io';

/**
 * One frame, already serialised by a protocol module: an SSE event, or a piece of a streamed JSON
 * array (Gemini without `alt=sse`). `tokens > 0` marks a content chunk: it is paced and counted
 * for stream faults. `open` frames (before content) never trigger faults; a `close` frame lets a
 * fault set beyond the content fire before it.
 */
export interface StreamFrame {
  /** Text for SSE and JSON arrays; bytes for binary framings (AWS event-stream). */
  data: string | Uint8Array;
  tokens: number;
  phase: 'open' | 'body' | 'close';
}

export interface StreamFaults {
  /** After this many content chunks, write the error frame and end the response. */
  errorAfterChunks?: number;
  /** After this many content chunks, destroy the socket. */
  dropAfterChunks?: number;
  /** After this many content chunks, write the garbage frame once, then carry on. */
  garbageAfterChunks?: number;
  /** After this many content chunks, write nothing more and hold the connection until the client leaves. */
  stallAfterChunks?: number;
  /** Declare the whole stream's content-length, send half its bytes, then close. */
  halfBody?: boolean;
}

/** A frame serialised by a protocol module; a function receives how many frames were written before it. */
export type FrameAt = string | Uint8Array | ((framesWritten: number) => string | Uint8Array);

export interface StreamProgram {
  frames: readonly StreamFrame[];
  /**
   * Serialised in-stream error in the protocol's own format (a JSON-array stream needs a comma
   * only after an element, hence the function form).
   */
  errorFrame: FrameAt;
  /** A frame in the protocol's framing whose payload is not JSON; required for `garbageAfterChunks`. */
  garbageFrame?: FrameAt;
  faults: StreamFaults;
  tokensPerSecond: number;
  headers?: Record<string, string>;
}

type Fault = 'error' | 'drop' | 'stall' | undefined;

function due(limit: number | undefined, written: number, phase: StreamFrame['phase']): boolean {
  return phase !== 'open' && limit !== undefined && (written >= limit || phase === 'close');
}

/** A fault set beyond the content still fires, just before the closing frames. */
function dueFault(faults: StreamFaults, written: number, phase: StreamFrame['phase']): Fault {
  if (due(faults.dropAfterChunks, written, phase)) return 'drop';
  if (due(faults.stallAfterChunks, written, phase)) return 'stall';
  if (due(faults.errorAfterChunks, written, phase)) return 'error';
  return undefined;
}

function frameAt(frame: FrameAt, framesWritten: number): string | Uint8Array {
  return typeof frame === 'function' ? frame(framesWritten) : frame;
}

const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/**
 * Writes the frames with pacing, back-pressure and fault injection. Stops at once when the
 * client disconnects: every wait observes `signal`, which the server aborts on 'close'.
 */
export async function playStream(res: ServerResponse, signal: AbortSignal, program: StreamProgram): Promise<void> {
  const headers = { ...STREAM_HEADERS, ...program.headers };
  if (program.faults.halfBody) {
    const payload = Buffer.concat(program.frames.map((frame) => (typeof frame.data === 'string' ? Buffer.from(frame.data, 'utf8') : frame.data)));
    return sendPart(res, signal, { status: 200, contentType: headers['content-type'], payload, stall: false });
  }
  res.writeHead(200, headers);
  res.flushHeaders();
  let written = 0;
  let framesWritten = 0;
  let garbled = false;
  let lastFlush: Promise<void> = Promise.resolve();
  for (const frame of program.frames) {
    const fault = dueFault(program.faults, written, frame.phase);
    if (fault === 'drop') {
      // Destroying discards unsent bytes; wait until the frames already written are on the wire.
      await Promise.race([lastFlush, aborted(signal)]);
      res.socket?.destroy();
      return;
    }
    if (fault === 'stall') {
      await aborted(signal);
      return;
    }
    if (fault === 'error') {
      if (await writeWithBackpressure(res, frameAt(program.errorFrame, framesWritten), signal)) res.end();
      return;
    }
    if (!garbled && program.garbageFrame !== undefined && due(program.faults.garbageAfterChunks, written, frame.phase)) {
      garbled = true;
      if (!(await writeWithBackpressure(res, frameAt(program.garbageFrame, framesWritten), signal))) return;
      framesWritten += 1;
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
