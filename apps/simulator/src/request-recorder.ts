import { parseJson } from './http-io';
import type { SimProtocol } from './protocols/protocol-module';

export type RecordedProtocol = SimProtocol | 'control';

export interface RecordedRequest {
  id: string;
  protocol: RecordedProtocol;
  method: string;
  /** Path including the query string. */
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
  receivedAt: string;
}

export type RecordInput = Omit<RecordedRequest, 'body'> & { rawBody: string };

export const DEFAULT_MAX_RECORDED = 10_000;

/**
 * Keeps the most recent requests, oldest dropped first. Only the raw body is stored; it is parsed
 * again when read, which halves memory under benchmark load where records are rarely read.
 */
export class RequestRecorder {
  private entries: RecordInput[] = [];

  constructor(private readonly limit = DEFAULT_MAX_RECORDED) {}

  record(entry: RecordInput): void {
    if (this.limit <= 0) return;
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  /** Requests in arrival order; with `match`, only those whose raw body contains it. */
  list(match?: string): RecordedRequest[] {
    const selected = match === undefined ? this.entries : this.entries.filter((entry) => entry.rawBody.includes(match));
    return selected.map(toRecord);
  }

  clear(): void {
    this.entries = [];
  }
}

function toRecord(entry: RecordInput): RecordedRequest {
  const parsed = parseJson(entry.rawBody);
  return {
    id: entry.id,
    protocol: entry.protocol,
    method: entry.method,
    path: entry.path,
    headers: { ...entry.headers },
    body: parsed.ok ? parsed.value : entry.rawBody,
    receivedAt: entry.receivedAt,
  };
}
