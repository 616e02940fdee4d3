/**
 * The deployment files (docker-compose.yml, deploy/nginx.conf, deploy/kubernetes) against the
 * gateway they deploy: every variable they set is one the gateway reads and the configuration guide
 * (docs/guide/configuration.md) documents,
 * their values pass the real config loader, probes hit the real health routes, streams are not
 * buffered, bodies up to BODY_LIMIT get through, and shutdown has time to drain.
 * (Docker and a cluster cannot run here; these are the parts that drift silently.)
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '@rosetta/platform';

const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const yaml = (path: string): any => parse(read(path));
const DEFAULTS = loadConfig({});
const DOCUMENTED_VARS = new Set([...read('docs/guide/configuration.md').matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...(m[1] as string).matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((v) => v[1] as string)));

/**
 * `${NAME:?message}` / `${NAME:-default}` / `${NAME-default}` as compose would fill them for a
 * valid deployment with nothing else set.
 */
function composeValue(value: string): string {
  return value.replace(/\$\{([A-Z_]+)(?::?([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) =>
    name === 'ADMIN_TOKEN' ? 'change-me-please-0123' : kind === '-' ? (rest ?? '') : '',
  );
}
const composeEnv = (service: { environment: Record<string, string> }, set: Record<string, string> = {}): Record<string, string> =>
  Object.fromEntries(Object.entries(service.environment).map(([k, v]) => [k, k in set ? set[k]! : composeValue(String(v))]));

describe('docker-compose.yml', () => {
  const compose = yaml('docker-compose.yml');
  const gateway = compose.services.gateway;

  it('runs several gateway replicas behind an ingress, reachable only through it', () => {
    expect(gateway.deploy.replicas).toBeGreaterThanOrEqual(2);
    expect(gateway.ports).toBeUndefined();
    expect(compose.services.ingress.ports).toEqual(['8080:8080']);
    expect(compose.services.ingress.depends_on.gateway.condition).toBe('service_healthy');
    const [source, target] = (compose.services.ingress.volumes[0] as string).split(':');
    expect(existsSync(join(ROOT, source as string))).toBe(true);
    expect(target).toBe('/etc/nginx/nginx.conf');
  });

  it('gives the gateway a configuration its loader accepts, shared Postgres and Redis, and time to drain', () => {
    const env = composeEnv(gateway);
    for (const name of Object.keys(env)) expect(DOCUMENTED_VARS).toContain(name);
    const config = loadConfig(env);
    expect(config.databaseUrl).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(config.redis).toEqual({ kind: 'url', url: 'redis://redis:6379' });
    expect(parseInt(gateway.stop_grace_period, 10) * 1000).toBeGreaterThan(config.shutdownGraceMs);
    expect(gateway.healthcheck.test.join(' ')).toContain('/readyz');
  });
});

describe('docker compose --profile demo', () => {
  const compose = yaml('docker-compose.yml');
  const gateway = compose.services.gateway;
  const env = composeEnv(gateway);

  it('runs the simulator from the same image, only in the demo profile, where the gateway looks for it', () => {
    const simulator = compose.services.simulator;
    expect(simulator.profiles).toEqual(['demo']);
    expect(simulator.build).toBe(gateway.build);
    const [, script] = simulator.command as [string, string];
    expect(existsSync(join(ROOT, script.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
    // Off unless named: a plain `docker compose up` never routes to a simulator that is not running.
    expect(gateway.environment.SIMULATOR_URL).toBe('${SIMULATOR_URL:-}');
    expect(loadConfig(env).simulatorMode).toBe(false);
    const header = read('docker-compose.yml').split('\nservices:')[0]!;
    expect(header).toContain(`SIMULATOR_URL=http://simulator:${simulator.environment.SIM_PORT}`);
    expect(header).toContain('--profile demo up');
    expect(simulator.expose).toEqual([simulator.environment.SIM_PORT]);
  });

  it('routes every built-in provider to it with no provider key, and to the real APIs as soon as one is set', () => {
    const demo = loadConfig({ ...env, SIMULATOR_URL: 'http://simulator:8081' });
    expect(demo.simulatorMode).toBe(true);
    const urls = (config: typeof demo) => Object.fromEntries(config.providers.map((p) => [p.slug, p.baseUrl]));
    // OpenAI's Responses API (gpt-5-codex) is the same account and base URL as its chat completions.
    expect(urls(demo)).toEqual({ openai: 'http://simulator:8081/v1', 'openai-responses': 'http://simulator:8081/v1', anthropic: 'http://simulator:8081', gemini: 'http://simulator:8081' });
    expect(demo.providers.every((p) => p.apiKey)).toBe(true);
    // A providers file adds providers beside the simulator, as the admin API does (issue 27).
    expect(urls(loadConfig({ ...env, SIMULATOR_URL: 'http://simulator:8081', PROVIDERS_FILE: '/etc/rosetta/providers.yaml' }))).toEqual(urls(demo));
    const real = loadConfig({ ...env, SIMULATOR_URL: 'http://simulator:8081', OPENAI_API_KEY: 'sk-real' });
    expect(real.simulatorMode).toBe(false);
    // The cloud built-ins stay off (no address) until BEDROCK_REGION / VERTEX_PROJECT are set.
    expect(urls(real)).toEqual({ openai: 'https://api.openai.com/v1', 'openai-responses': 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com', gemini: 'https://generativelanguage.googleapis.com', bedrock: '', vertex: '', 'vertex-anthropic': '' });
  });
});

describe('docker compose --profile redis-cluster', () => {
  const compose = yaml('docker-compose.yml');
  const gateway = compose.services.gateway;
  const nodes = ['redis-node-1', 'redis-node-2', 'redis-node-3'];
  const header = read('docker-compose.yml').split('\nservices:')[0]!;
  /** The variables the header's command sets, as the shell would pass them to compose. */
  const set = Object.fromEntries([...header.matchAll(/\b(REDIS_[A-Z_]+)=(\S*)/g)].map((m) => [m[1]!, m[2]!]));

  it('runs three cluster-enabled masters and a one-shot init that joins them, only in that profile', () => {
    for (const name of nodes) {
      const node = compose.services[name];
      expect(node.profiles).toEqual(['redis-cluster']);
      expect(node.command.join(' ')).toContain('--cluster-enabled yes');
    }
    const init = compose.services['redis-cluster-init'];
    expect(init.profiles).toEqual(['redis-cluster']);
    expect(Object.keys(init.depends_on)).toEqual(nodes);
    expect(init.command[0]).toContain('--cluster create');
    expect(init.command[0]).toContain('--cluster-replicas 0');
    // Replicas start once the slots are assigned, and without the profile the dependency is skipped.
    expect(gateway.depends_on['redis-cluster-init']).toEqual({ condition: 'service_completed_successfully', required: false });
    expect(header).toContain('--profile redis-cluster up');
  });

  it('gives the gateway those nodes (and no REDIS_URL) with the header\'s command', () => {
    expect(set).toEqual({ REDIS_URL: '', REDIS_CLUSTER_NODES: nodes.map((n) => `${n}:6379`).join(',') });
    expect(loadConfig(composeEnv(gateway, set)).redis).toEqual({ kind: 'cluster', nodes: nodes.map((host) => ({ host, port: 6379 })), auth: {} });
  });
});

describe('deploy/nginx.conf', () => {
  const conf = read('deploy/nginx.conf');
  const directive = (name: string): string | undefined => new RegExp(`^\\s*${name}\\s+([^;]+);`, 'm').exec(conf)?.[1];

  it('streams without buffering, past the gateway\'s own time-outs, to every replica', () => {
    expect(directive('proxy_buffering')).toBe('off');
    expect(parseInt(directive('proxy_read_timeout') ?? '0', 10) * 1000).toBeGreaterThanOrEqual(DEFAULTS.timeouts.totalMs);
    // Every address compose's DNS gives for `gateway` is a peer, re-resolved as replicas come and go.
    expect(directive('proxy_pass')).toBe('http://gateway');
    expect(/upstream gateway \{[^}]*\bzone gateway [^;]+;[^}]*\bserver gateway:8080 resolve\b[^;]*;/.test(conf)).toBe(true);
    expect(directive('resolver')).toMatch(/^127\.0\.0\.11 valid=\d+s/);
    // A POST that reached a replica is never sent to a second one.
    expect(directive('proxy_next_upstream')).not.toContain('non_idempotent');
  });

  it('runs on a compose ingress image that has `resolve` on an upstream server (1.27.3): the 1.28 stable line or later', () => {
    const [major, minor] = String(yaml('docker-compose.yml').services.ingress.image).replace(/^nginx:/, '').split('.').map(Number);
    expect(major! * 1000 + minor!).toBeGreaterThanOrEqual(1028);
  });

  it('lets bodies up to BODY_LIMIT through, so the gateway answers 413 in the client\'s dialect', () => {
    const mib = parseInt(directive('client_max_body_size') ?? '0', 10);
    expect(mib * 1024 ** 2).toBeGreaterThan(DEFAULTS.bodyLimitBytes);
  });
});

describe('deploy/kubernetes', () => {
  const kustomization = yaml('deploy/kubernetes/kustomization.yaml');
  const docs = (kustomization.resources as string[]).flatMap((file) => parseAllDocuments(read(`deploy/kubernetes/${file}`)).map((d) => d.toJS()));
  const of = (kind: string, name?: string): any => docs.find((d) => d.kind === kind && (name === undefined || d.metadata.name === name));
  const deployment = of('Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const env = Object.fromEntries(container.env.map((e: any) => [e.name, e.value]));
  const secret = yaml('deploy/kubernetes/secret.example.yaml').stringData as Record<string, string>;
  // The example's SECRETS_KEY is a placeholder that fails the loader on purpose (nobody should run
  // with a published key); a real one is 32 random bytes.
  const config = loadConfig({ ...secret, SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'), ...env });

  it('lists only files that exist', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual(['Deployment', 'HorizontalPodAutoscaler', 'Ingress', 'PodDisruptionBudget', 'Service', 'Service']);
  });

  it('probes the real health routes on the port the gateway listens on', () => {
    expect(container.ports).toEqual([{ name: 'http', containerPort: config.port }, { name: 'admin', containerPort: config.adminPort }]);
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(of('Service', 'rosetta-gateway').spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(of('Service', 'rosetta-gateway').spec.ports).toEqual([expect.objectContaining({ targetPort: 'http' })]);
    // The HPA owns the replica count: a fixed one would reset a scaled-up Deployment on every apply.
    expect(deployment.spec.replicas).toBeUndefined();
    expect(of('PodDisruptionBudget').spec.minAvailable).toBeLessThan(of('HorizontalPodAutoscaler').spec.minReplicas);
  });

  it('keeps the admin surface off the public Ingress: ADMIN_PORT, served by a ClusterIP Service no Ingress names', () => {
    expect(config.adminPort).toBeGreaterThan(0);
    expect(config.adminPort).not.toBe(config.port);
    const admin = of('Service', 'rosetta-gateway-admin');
    expect(admin.spec.type).toBe('ClusterIP');
    expect(admin.spec.ports).toEqual([expect.objectContaining({ targetPort: 'admin' })]);
    const backends = (of('Ingress').spec.rules as any[]).flatMap((r) => r.http.paths.map((p: any) => p.backend.service));
    expect(backends).toEqual([{ name: 'rosetta-gateway', port: { name: 'http' } }]);
    expect(of('Ingress').spec.tls[0].secretName).toBeTruthy();
    expect(() => loadConfig({ ...secret, ...env })).toThrow(/SECRETS_KEY/);
  });

  it('scales on CPU without going below the disruption budget, and takes its image from kustomize', () => {
    const hpa = of('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    expect(hpa.spec.minReplicas).toBeGreaterThan(of('PodDisruptionBudget').spec.minAvailable);
    expect(container.resources.requests.cpu).toBeDefined();
    expect(kustomization.images.map((i: any) => i.name)).toEqual([container.image]);
  });

  it('spreads the replicas over zones where it can and over nodes always, honouring taints', () => {
    const spread = (key: string) => (pod.topologySpreadConstraints as any[]).find((c) => c.topologyKey === key);
    const selector = { matchLabels: deployment.spec.selector.matchLabels };
    expect(spread('topology.kubernetes.io/zone')).toEqual({ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selector });
    expect(spread('kubernetes.io/hostname')).toEqual({ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', nodeTaintsPolicy: 'Honor', labelSelector: selector });
    expect(of('PodDisruptionBudget').spec.selector).toEqual(selector);
  });

  it('runs one worker per core it requests (WORKERS = the CPU request)', () => {
    const cpu = String(container.resources.requests.cpu);
    const cores = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) / 1000 : Number(cpu);
    expect(config.workers).toBe(cores);
  });

  it('waits out the pre-stop pause and the drain before killing a pod', () => {
    for (const name of [...Object.keys(env), ...Object.keys(secret)]) expect(DOCUMENTED_VARS).toContain(name);
    const [, seconds] = container.lifecycle.preStop.exec.command as [string, string];
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(Number(seconds) + config.shutdownGraceMs / 1000);
    expect(container.envFrom[0].secretRef.name).toBe(yaml('deploy/kubernetes/secret.example.yaml').metadata.name);
  });

  it('has the ingress stream unbuffered with room for long answers and full-size bodies', () => {
    const notes = of('Ingress').metadata.annotations as Record<string, string>;
    expect(notes['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    expect(Number(notes['nginx.ingress.kubernetes.io/proxy-read-timeout']) * 1000).toBeGreaterThanOrEqual(DEFAULTS.timeouts.totalMs);
    expect(parseInt(notes['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '0', 10) * 1024 ** 2).toBeGreaterThan(DEFAULTS.bodyLimitBytes);
  });
});
