/**
 * Typed configuration, read once from the environment and validated at start. A bad value stops
 * the process with a message naming the variable (house style 13).
 */
import { availableParallelism } from 'node:os';
import { parseTrustedProxies } from './trusted-proxies';
import { ConfigError } from './config-error';
import { dashboardConfig, type DashboardConfig } from './dashboard-config';
import { redisTopologyFromEnv, type RedisTopology } from './redis-config';
import { secretKeysFromEnv } from './secret-box';
import { tracingConfig, type TracingConfig } from './tracing/tracing-config';

export interface UpstreamTimeouts {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
  totalMs: number;
  /**
   * The first-byte watchdog: a streamed attempt with another candidate behind it falls back when
   * the upstream sent no response headers within this (0: off). Non-streamed attempts keep
   * `firstByteMs`, since their first byte comes only with the whole answer.
   */
  fallbackFirstByteMs: number;
}

export interface BuiltinProviderConfig {
  slug: 'openai' | 'openai-responses' | 'anthropic' | 'gemini' | 'bedrock' | 'vertex' | 'vertex-anthropic';
  apiKey?: string;
  /** Empty for a cloud provider whose variables are unset; from the platform otherwise. */
  baseUrl: string;
  /**
   * A cloud provider's platform, from its variables (BEDROCK_REGION; VERTEX_PROJECT and
   * VERTEX_LOCATION); `null` while they are unset, which leaves the provider off.
   */
  cloud?: { kind: 'bedrock'; region: string } | { kind: 'vertex'; project: string; location: string } | null;
}

export interface RosettaConfig {
  port: number;
  host: string;
  /** ADMIN_PORT: when set, the admin API, metrics, dashboard and docs are served only there. */
  adminPort?: number;
  /** ADMIN_HOST: the admin port's interface (default: HOST). */
  adminHost?: string;
  databaseUrl?: string;
  dataDir: string;
  /**
   * The Redis shared by every replica and worker: REDIS_URL, REDIS_CLUSTER_NODES, or
   * REDIS_SENTINELS with REDIS_SENTINEL_NAME (redis-config.ts); undefined without one.
   */
  redis?: RedisTopology;
  adminToken?: string;
  modelNamespace: string;
  bodyLimitBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  timeouts: UpstreamTimeouts;
  providers: BuiltinProviderConfig[];
  providersFile?: string;
  /** A fitted router artefact (`npm run router:fit`); unset: the one shipped in libs/mixture/artefacts. */
  routerArtefact?: string;
  /** Circuit breaker: consecutive failures that open an endpoint's circuit, and its first cool-down. */
  breaker: { failures: number; cooldownMs: number };
  /** Hosts a caller's provider_configs base_url may name even on private addresses or http. */
  upstreamAllowHosts: string[];
  /** Hosts a webhook URL (alerts, webhook guardrails) may name even on a private or loopback address. */
  webhookAllowHosts: string[];
  /** TRUSTED_PROXIES: the proxies whose X-Forwarded-For is believed (addresses or CIDR ranges). */
  trustedProxies: string[];
  /**
   * MODEL_ALIASES: ids clients send on their own (Claude Code's `claude-opus-…`, Gemini CLI's
   * `gemini-3…`) mapped to Rosetta models; a trailing `*` matches a prefix. Empty by default, so
   * an id outside the namespace stays a 400.
   */
  modelAliases: { pattern: string; target: string }[];
  /** Set by `npm start` when no upstream credentials exist and the bundled simulator serves. */
  simulatorMode: boolean;
  shutdownGraceMs: number;
  /** How long an idle client connection stays open: longer than a load balancer's own idle time-out. */
  keepAliveTimeoutMs: number;
  /**
   * WORKERS: gateway processes behind the replica's ports (node:cluster), default the available
   * parallelism. What was asked for: the start forces one process where workers would not share
   * state exactly (apps/gateway/src/worker-plan.ts).
   */
  workers: number;
  /** RESPONSES_RETENTION_DAYS: how long stored Responses answers can be read back and continued. */
  responsesRetentionDays: number;
  /**
   * LEDGER_RETENTION_DAYS: how long the ledger keeps its rows; months wholly older are dropped
   * (their daily rollup stays). Undefined (unset): kept forever.
   */
  ledgerRetentionDays?: number;
  /**
   * The response cache's limits (it is turned on per plan or key): RESPONSE_CACHE_MAX_ENTRY (the
   * largest answer kept), RESPONSE_CACHE_MEMORY (the in-process store's size without Redis),
   * RESPONSE_CACHE_EMBEDDING_MODEL (semantic mode's embedding model).
   */
  responseCache: { maxEntryBytes: number; memoryBytes: number; embeddingModel: string };
  /** OpenTelemetry tracing from the standard OTEL_* variables; undefined (off) without an OTLP endpoint. */
  tracing?: TracingConfig;
  /** SECRETS_KEY (seals provider secrets at rest) and SECRETS_KEY_PREVIOUS (still opened, for rotation). */
  secretKeys: { current?: Buffer; previous: Buffer[] };
  /** Dashboard sessions and OIDC single sign-on (dashboard-config.ts). */
  dashboard: DashboardConfig;
}

export { ConfigError };

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** A comma-separated host list (`*.suffix` entries allowed); empty when unset. */
function hostList(env: Env, name: string): string[] {
  return (str(env, name) ?? '').split(',').map((h) => h.trim()).filter(Boolean);
}

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got '${raw}'`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, fallback?: string, protocols = ['http:', 'https:']): string | undefined {
  const raw = str(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got '${parsed.protocol}'`);
  }
  return raw.replace(/\/+$/, '');
}

/** More workers than this is a typo, not a machine. */
const MAX_WORKERS = 256;

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

function size(env: Env, name: string, fallback: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw);
  if (!match) throw new ConfigError(name, `must be a size like 10mb or 1048576, got '${raw}'`);
  return Number(match[1]) * (SIZE_UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got '${raw}'`);
  }
  return raw as T;
}

/** `pattern=target,...`, e.g. `claude-opus-*=rosetta/claude-sonnet-4-5,gemini-3*=rosetta/gemini-2.5-pro`. */
function aliases(env: Env, namespace: string): { pattern: string; target: string }[] {
  const raw = str(env, 'MODEL_ALIASES');
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const [pattern, target, extra] = entry.split('=').map((part) => part.trim());
    if (!pattern || !target || extra !== undefined || !/^[^\s*]+\*?$/.test(pattern)) {
      throw new ConfigError('MODEL_ALIASES', `each entry must be 'client-id=${namespace}/model' (a trailing * matches a prefix), got '${entry.trim()}'`);
    }
    if (!target.startsWith(`${namespace}/`)) throw new ConfigError('MODEL_ALIASES', `'${pattern}' must map to a ${namespace}/* model, got '${target}'`);
    return { pattern, target };
  });
}

/** The variables that give a built-in provider its key: any of them turns the bundled simulator off. */
export const BUILTIN_KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'BEDROCK_REGION', 'VERTEX_PROJECT'] as const;

/**
 * The built-in cloud providers (ARCHITECTURE §9): `bedrock` (Converse) from BEDROCK_REGION, with
 * SigV4 from the AWS default chain or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK; `vertex`
 * (Gemini) and `vertex-anthropic` (Claude) from VERTEX_PROJECT and VERTEX_LOCATION (default
 * `global`), with Application Default Credentials. `*_BASE_URL` names a private endpoint.
 */
function cloudProviders(env: Env): BuiltinProviderConfig[] {
  const region = str(env, 'BEDROCK_REGION');
  if (region !== undefined && !/^[a-z]{2}(-gov)?-[a-z]+-\d$/.test(region)) throw new ConfigError('BEDROCK_REGION', 'must be an AWS region such as us-east-1');
  const project = str(env, 'VERTEX_PROJECT');
  if (project !== undefined && !/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(project)) throw new ConfigError('VERTEX_PROJECT', 'must be a Google Cloud project id');
  const location = str(env, 'VERTEX_LOCATION') ?? 'global';
  if (!/^(global|[a-z]+-[a-z]+\d+)$/.test(location)) throw new ConfigError('VERTEX_LOCATION', 'must be a Google Cloud region such as us-east5, or global');
  const vertexBase = url(env, 'VERTEX_BASE_URL', location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`)!;
  const vertex = project === undefined ? null : { kind: 'vertex' as const, project, location };
  return [
    {
      slug: 'bedrock',
      apiKey: region === undefined ? undefined : (str(env, 'AWS_BEARER_TOKEN_BEDROCK') ?? ''),
      baseUrl: region === undefined ? '' : url(env, 'BEDROCK_BASE_URL', `https://bedrock-runtime.${region}.amazonaws.com`)!,
      cloud: region === undefined ? null : { kind: 'bedrock', region },
    },
    { slug: 'vertex', apiKey: vertex ? '' : undefined, baseUrl: vertex ? vertexBase : '', cloud: vertex },
    { slug: 'vertex-anthropic', apiKey: vertex ? '' : undefined, baseUrl: vertex ? vertexBase : '', cloud: vertex },
  ];
}

export function loadConfig(env: Env = process.env): RosettaConfig {
  const namespace = str(env, 'MODEL_NAMESPACE') ?? 'rosetta';
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(namespace)) {
    throw new ConfigError('MODEL_NAMESPACE', 'must be lowercase letters, digits, dot, dash or underscore');
  }
  const adminToken = str(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  }
  // SIMULATOR_URL (docker compose's demo profile): a running simulator serves every built-in
  // provider, but only while no built-in provider's key is set — a real key always wins. A
  // PROVIDERS_FILE adds providers beside it, as adding one through the admin API does.
  const simulatorUrl = url(env, 'SIMULATOR_URL');
  const hasCredentials = BUILTIN_KEYS.some((name) => str(env, name) !== undefined);
  const demo = hasCredentials ? undefined : simulatorUrl;
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    adminPort: str(env, 'ADMIN_PORT') === undefined ? undefined : int(env, 'ADMIN_PORT', 0, 0, 65535),
    adminHost: str(env, 'ADMIN_HOST'),
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
    dataDir: str(env, 'ROSETTA_DATA_DIR') ?? '.rosetta',
    redis: redisTopologyFromEnv(env),
    adminToken,
    modelNamespace: namespace,
    bodyLimitBytes: size(env, 'BODY_LIMIT', 10 * 1024 ** 2),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
    timeouts: {
      connectMs: int(env, 'UPSTREAM_CONNECT_TIMEOUT_MS', 10_000, 1),
      firstByteMs: int(env, 'UPSTREAM_FIRST_BYTE_TIMEOUT_MS', 120_000, 1),
      idleMs: int(env, 'UPSTREAM_IDLE_TIMEOUT_MS', 120_000, 1),
      totalMs: int(env, 'UPSTREAM_TOTAL_TIMEOUT_MS', 600_000, 1),
      fallbackFirstByteMs: int(env, 'UPSTREAM_FALLBACK_FIRST_BYTE_MS', 15_000, 0),
    },
    providers: demo
      ? [
          { slug: 'openai', apiKey: 'simulator-openai-key', baseUrl: `${demo}/v1` },
          { slug: 'openai-responses', apiKey: 'simulator-openai-key', baseUrl: `${demo}/v1` },
          { slug: 'anthropic', apiKey: 'simulator-anthropic-key', baseUrl: demo },
          { slug: 'gemini', apiKey: 'simulator-gemini-key', baseUrl: demo },
        ]
      : [
          { slug: 'openai', apiKey: str(env, 'OPENAI_API_KEY'), baseUrl: url(env, 'OPENAI_BASE_URL', 'https://api.openai.com/v1')! },
          // The same account's Responses API, for the models OpenAI serves only there (gpt-5-codex).
          { slug: 'openai-responses', apiKey: str(env, 'OPENAI_API_KEY'), baseUrl: url(env, 'OPENAI_BASE_URL', 'https://api.openai.com/v1')! },
          { slug: 'anthropic', apiKey: str(env, 'ANTHROPIC_API_KEY'), baseUrl: url(env, 'ANTHROPIC_BASE_URL', 'https://api.anthropic.com')! },
          { slug: 'gemini', apiKey: str(env, 'GEMINI_API_KEY'), baseUrl: url(env, 'GEMINI_BASE_URL', 'https://generativelanguage.googleapis.com')! },
          ...cloudProviders(env),
        ],
    providersFile: str(env, 'PROVIDERS_FILE'),
    routerArtefact: str(env, 'ROUTER_ARTEFACT'),
    breaker: { failures: int(env, 'CIRCUIT_BREAKER_FAILURES', 5, 1), cooldownMs: int(env, 'CIRCUIT_BREAKER_COOLDOWN_MS', 30_000, 1) },
    trustedProxies: parseTrustedProxies(str(env, 'TRUSTED_PROXIES')),
    upstreamAllowHosts: hostList(env, 'UPSTREAM_ALLOW_HOSTS'),
    webhookAllowHosts: hostList(env, 'WEBHOOK_ALLOW_HOSTS'),
    modelAliases: aliases(env, namespace),
    simulatorMode: demo !== undefined || str(env, 'ROSETTA_SIMULATOR') === '1',
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0),
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 3_600_000),
    workers: int(env, 'WORKERS', availableParallelism(), 1, MAX_WORKERS),
    responsesRetentionDays: int(env, 'RESPONSES_RETENTION_DAYS', 30, 1, 3650),
    // At least a week: no row the gateway writes (a stream's start time, a recovered request) can
    // then belong to a month already dropped.
    ledgerRetentionDays: str(env, 'LEDGER_RETENTION_DAYS') === undefined ? undefined : int(env, 'LEDGER_RETENTION_DAYS', 0, 7, 36_500),
    responseCache: {
      maxEntryBytes: size(env, 'RESPONSE_CACHE_MAX_ENTRY', 1024 ** 2),
      memoryBytes: size(env, 'RESPONSE_CACHE_MEMORY', 64 * 1024 ** 2),
      embeddingModel: str(env, 'RESPONSE_CACHE_EMBEDDING_MODEL') ?? `${namespace}/text-embedding-3-small`,
    },
    tracing: tracingConfig(env),
    secretKeys: secretKeysFromEnv(env),
    dashboard: dashboardConfig(env),
  };
}

/** Injection token for the loaded configuration. */
export const ROSETTA_CONFIG = Symbol('ROSETTA_CONFIG');
