import { loadConfig } from '../config';
import { tracingConfig } from './tracing-config';

describe('tracingConfig', () => {
  it('is off without an OTLP endpoint, and when the SDK or the exporter is turned off', () => {
    expect(tracingConfig({})).toBeUndefined();
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('reads the endpoint, the protocol (http/protobuf by default) and the content opt-in', () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({ endpoint: 'http://collector:4318/v1/traces', protocol: 'http/protobuf', captureContent: false });
    expect(
      tracingConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:secret@otel.example/custom/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
      }),
    ).toEqual({ endpoint: 'https://otel.example/custom/traces', protocol: 'http/json', captureContent: true });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false' })?.captureContent).toBe(false);
  });

  it('refuses what it cannot honour, naming the variable', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(() => tracingConfig({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/^OTEL_EXPORTER_OTLP_PROTOCOL: must be one of http\/protobuf, http\/json, got 'grpc' \(gRPC is not supported/);
    expect(() => tracingConfig({ ...on, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'json' })).toThrow(/^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: /);
    expect(() => tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT: must use http: or https:/);
    expect(() => tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow(/^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be a valid URL/);
    expect(() => tracingConfig({ ...on, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/^OTEL_TRACES_EXPORTER: only 'otlp'/);
    expect(() => tracingConfig({ ...on, OTEL_SDK_DISABLED: 'yes' })).toThrow(/^OTEL_SDK_DISABLED: /);
    expect(() => tracingConfig({ ...on, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'please' })).toThrow(/^OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: /);
    expect(() => loadConfig({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/^OTEL_EXPORTER_OTLP_PROTOCOL/);
  });
});
