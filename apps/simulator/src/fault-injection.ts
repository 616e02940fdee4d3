import type { ServerResponse } from 'node:http';
import { aborted, sendJson } from './http-io';
import { withoutUndefined } from './reply-limits';
import type { ReplyPlan, SimFault } from './reply-plan';
import type { StreamFaults } from './sse-stream';

/** What a misbehaving proxy in front of an upstream might answer instead of the protocol's JSON. */
export const GARBAGE_TEXT = '<html><head><title>502 Bad Gateway</title></head><body>upstream sent an invalid response</body></html>';

/**
 * Faults that strike before any header, in every mode: `hang` holds the request until the client
 * leaves, `reset` aborts the connection with a TCP RST. Resolves true when the fault took the
 * exchange over.
 */
export async function faultBeforeHeaders(res: ServerResponse, signal: AbortSignal, fault: SimFault | undefined): Promise<boolean> {
  if (fault?.kind === 'hang') {
    await aborted(signal);
    return true;
  }
  if (fault?.kind === 'reset') {
    resetConnection(res);
    return true;
  }
  return false;
}

/** A whole (non-streamed) JSON answer, or the fault that replaces it. */
export async function sendJsonWithFault(
  res: ServerResponse,
  signal: AbortSignal,
  fault: SimFault | undefined,
  status: number,
  body: unknown,
): Promise<void> {
  if (await faultBeforeHeaders(res, signal, fault)) return;
  switch (fault?.kind) {
    case 'garbage':
      return sendRaw(res, 200, 'application/json', GARBAGE_TEXT);
    case 'half-body':
    case 'stall':
      return sendPart(res, signal, { status, contentType: 'application/json', payload: JSON.stringify(body), stall: fault.kind === 'stall' });
    default:
      return sendJson(res, status, body);
  }
}

export interface PartialBody {
  status: number;
  contentType: string;
  payload: string | Uint8Array;
  /** true: hold the connection open after the first half; false: close it. */
  stall: boolean;
}

/** Declares the whole payload's length, sends its first half, then stalls or closes. */
export async function sendPart(res: ServerResponse, signal: AbortSignal, part: PartialBody): Promise<void> {
  const bytes = typeof part.payload === 'string' ? Buffer.from(part.payload, 'utf8') : Buffer.from(part.payload);
  res.writeHead(part.status, { 'content-type': part.contentType, 'content-length': bytes.length });
  const flushed = new Promise<void>((resolve) => res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => resolve()));
  // Destroying discards unsent bytes; wait until the half is on the wire (or the client left).
  await Promise.race([flushed, aborted(signal)]);
  if (part.stall) {
    await aborted(signal);
    return;
  }
  res.socket?.destroy();
}

function sendRaw(res: ServerResponse, status: number, contentType: string, payload: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

/** A TCP RST where the platform offers it, which is what a crashed or firewalled peer sends. */
function resetConnection(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** The stream faults a plan asks for, in the terms `playStream` understands. */
export function streamFaultsOf(plan: ReplyPlan): StreamFaults {
  const { fault } = plan;
  return withoutUndefined({
    errorAfterChunks: plan.streamErrorAfterChunks,
    dropAfterChunks: plan.dropConnectionAfterChunks,
    garbageAfterChunks: fault?.kind === 'garbage' ? (fault.afterChunks ?? 0) : undefined,
    stallAfterChunks: fault?.kind === 'stall' ? (fault.afterChunks ?? 0) : undefined,
    halfBody: fault?.kind === 'half-body' ? true : undefined,
  });
}
