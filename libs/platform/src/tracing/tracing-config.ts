import { ConfigError } from '../config-error';

/** The OTLP encodings over HTTP the gateway exports in (gRPC is not bundled). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/**
 * Tracing as OpenTelemetry's standard variables describe it. Only what the gateway decides itself
 * is here; the exporter and the SDK read the rest of the standard set on their own
 * (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION, OTEL_BSP_*, OTEL_TRACES_SAMPLER[_ARG],
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME).
 */
export interface TracingConfig {
  /** Where spans go, for the start-up log: the traces endpoint, or the base endpoint + /v1/traces. */
  endpoint: string;
  protocol: OtlpProtocol;
  /**
   * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, the switch OpenTelemetry's own GenAI
   * instrumentations read: prompt and completion text in spans. Off unless set.
   */
  captureContent: boolean;
}

type Env = Record<string, string | undefined>;

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];
const CAPTURE_ON = ['true', 'span_only', 'span_and_event'];
const CAPTURE_OFF = ['false', 'no_content'];

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function endpointUrl(name: string, raw: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a valid URL, got '${raw}'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(name, `must use http: or https: (OTLP over HTTP), got '${parsed.protocol}'`);
  }
  return parsed;
}

/** Where the exporter will send, without any credentials the URL may hold. */
function printable(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * Tracing is on only when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
 * OTEL_EXPORTER_OTLP_ENDPOINT) and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none
 * turns it off: undefined otherwise, and then nothing of OpenTelemetry runs or is even loaded.
 */
export function tracingConfig(env: Env): TracingConfig | undefined {
  const disabled = read(env, 'OTEL_SDK_DISABLED');
  if (disabled !== undefined && !['true', 'false'].includes(disabled.toLowerCase())) {
    throw new ConfigError('OTEL_SDK_DISABLED', `must be true or false, got '${disabled}'`);
  }
  if (disabled?.toLowerCase() === 'true') return undefined;
  const exporters = (read(env, 'OTEL_TRACES_EXPORTER') ?? 'otlp').split(',').map((e) => e.trim().toLowerCase());
  const unsupported = exporters.filter((e) => e !== 'otlp' && e !== 'none');
  if (unsupported.length > 0) throw new ConfigError('OTEL_TRACES_EXPORTER', `only 'otlp' (or 'none') is supported, got '${unsupported.join(',')}'`);
  if (!exporters.includes('otlp')) return undefined;

  const tracesEndpoint = read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  let endpoint: string;
  if (tracesEndpoint !== undefined) endpoint = printable(endpointUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint));
  else if (baseEndpoint !== undefined) endpoint = `${printable(endpointUrl('OTEL_EXPORTER_OTLP_ENDPOINT', baseEndpoint)).replace(/\/+$/, '')}/v1/traces`;
  else return undefined;

  const protocolVariable = read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = read(env, protocolVariable) ?? 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new ConfigError(protocolVariable, `must be one of ${PROTOCOLS.join(', ')}, got '${protocol}'${protocol === 'grpc' ? ' (gRPC is not supported: use an HTTP endpoint, usually port 4318)' : ''}`);
  }

  const capture = read(env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase();
  if (capture !== undefined && !CAPTURE_ON.includes(capture) && !CAPTURE_OFF.includes(capture)) {
    throw new ConfigError('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', `must be true or false, got '${capture}'`);
  }
  return { endpoint, protocol: protocol as OtlpProtocol, captureContent: capture !== undefined && CAPTURE_ON.includes(capture) };
}
