import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as a trace backend would show it, whichever OTLP encoding carried it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** OTLP's numbering: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  url: string;
  spans(): ReceivedSpan[];
  /** The content types of the export requests received, in order. */
  contentTypes(): string[];
  /** Polls the received spans until `ready` holds for them (or the time runs out, which throws). */
  waitFor(ready: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/**
 * A real OTLP/HTTP trace receiver on loopback: accepts `POST /v1/traces` in both encodings the
 * specification defines — `application/json` and `application/x-protobuf` (decoded here from the
 * wire format, field numbers from opentelemetry-proto's trace.proto) — and keeps every span.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const types: string[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
      types.push(type);
      try {
        if (type === 'application/json') {
          received.push(...decodeJson(JSON.parse(body.toString('utf8'))));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } else if (type === 'application/x-protobuf') {
          received.push(...decodeProtobuf(body));
          // An empty ExportTraceServiceResponse is zero bytes.
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } else {
          res.writeHead(415).end();
        }
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    contentTypes: () => [...types],
    waitFor: async (ready, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const spans = [...received];
        if (ready(spans)) return spans;
        if (Date.now() > deadline) throw new Error(`the expected spans did not arrive within ${timeoutMs} ms; received:\n${JSON.stringify(spans, null, 1)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// ---- OTLP/JSON ---------------------------------------------------------------------------------

type Json = Record<string, any>;

function jsonValue(value: Json | undefined): unknown {
  if (!value) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('arrayValue' in value) return ((value.arrayValue.values ?? []) as Json[]).map(jsonValue);
  return undefined;
}

function jsonAttributes(list: Json[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key as string, jsonValue(kv.value)]));
}

function decodeJson(body: Json): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of (body.resourceSpans ?? []) as Json[]) {
    const resource = jsonAttributes(rs.resource?.attributes);
    for (const ss of (rs.scopeSpans ?? []) as Json[]) {
      for (const s of (ss.spans ?? []) as Json[]) {
        spans.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind,
          attributes: jsonAttributes(s.attributes),
          statusCode: s.status?.code ?? 0,
          resource,
        });
      }
    }
  }
  return spans;
}

// ---- OTLP/protobuf -----------------------------------------------------------------------------

/** A protobuf wire-format reader: varints, fixed 32/64-bit fields and length-delimited fields. */
class ProtoReader {
  private pos = 0;

  constructor(private readonly buf: Buffer) {}

  /** Each field of the message as [number, value]: a bigint for varints, a Buffer otherwise. */
  *fields(): Generator<[number, bigint | Buffer]> {
    while (this.pos < this.buf.length) {
      const key = this.varint();
      const field = Number(key >> 3n);
      switch (Number(key & 7n)) {
        case 0:
          yield [field, this.varint()];
          break;
        case 1:
          yield [field, this.take(8)];
          break;
        case 2:
          yield [field, this.take(Number(this.varint()))];
          break;
        case 5:
          yield [field, this.take(4)];
          break;
        default:
          throw new Error(`unsupported protobuf wire type in field ${field}`);
      }
    }
  }

  private varint(): bigint {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  }

  private take(length: number): Buffer {
    if (this.pos + length > this.buf.length) throw new Error('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }
}

const fieldsOf = (buf: Buffer) => new ProtoReader(buf).fields();
const text = (value: bigint | Buffer) => (value as Buffer).toString('utf8');

/** AnyValue: 1 string, 2 bool, 3 int64, 4 double, 5 ArrayValue (1: repeated AnyValue). */
function protoValue(buf: Buffer): unknown {
  let value: unknown;
  for (const [field, raw] of fieldsOf(buf)) {
    if (field === 1) value = text(raw);
    else if (field === 2) value = raw === 1n;
    else if (field === 3) value = Number(BigInt.asIntN(64, raw as bigint));
    else if (field === 4) value = (raw as Buffer).readDoubleLE(0);
    else if (field === 5) value = [...fieldsOf(raw as Buffer)].filter(([f]) => f === 1).map(([, v]) => protoValue(v as Buffer));
  }
  return value;
}

/** KeyValue: 1 key, 2 value. */
function protoKeyValue(buf: Buffer): [string, unknown] {
  let key = '';
  let value: unknown;
  for (const [field, raw] of fieldsOf(buf)) {
    if (field === 1) key = text(raw);
    else if (field === 2) value = protoValue(raw as Buffer);
  }
  return [key, value];
}

/** Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes, 15 status (3: code). */
function protoSpan(buf: Buffer, resource: Record<string, unknown>): ReceivedSpan {
  const span: ReceivedSpan = { traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, attributes: {}, statusCode: 0, resource };
  for (const [field, raw] of fieldsOf(buf)) {
    if (field === 1) span.traceId = (raw as Buffer).toString('hex');
    else if (field === 2) span.spanId = (raw as Buffer).toString('hex');
    else if (field === 4) span.parentSpanId = (raw as Buffer).toString('hex');
    else if (field === 5) span.name = text(raw);
    else if (field === 6) span.kind = Number(raw);
    else if (field === 9) {
      const [key, value] = protoKeyValue(raw as Buffer);
      span.attributes[key] = value;
    } else if (field === 15) {
      for (const [f, v] of fieldsOf(raw as Buffer)) if (f === 3) span.statusCode = Number(v);
    }
  }
  return span;
}

/** ExportTraceServiceRequest: 1 ResourceSpans (1 Resource (1: attributes), 2 ScopeSpans (2: spans)). */
function decodeProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const [field, resourceSpans] of fieldsOf(body)) {
    if (field !== 1) continue;
    const resource: Record<string, unknown> = {};
    const scopes: Buffer[] = [];
    for (const [f, raw] of fieldsOf(resourceSpans as Buffer)) {
      if (f === 1) {
        for (const [rf, kv] of fieldsOf(raw as Buffer)) {
          if (rf !== 1) continue;
          const [key, value] = protoKeyValue(kv as Buffer);
          resource[key] = value;
        }
      } else if (f === 2) scopes.push(raw as Buffer);
    }
    for (const scope of scopes) {
      for (const [f, raw] of fieldsOf(scope)) if (f === 2) spans.push(protoSpan(raw as Buffer, resource));
    }
  }
  return spans;
}
