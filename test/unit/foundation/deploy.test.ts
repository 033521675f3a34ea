/**
 * The deployment files agree with the code (issue 25 item 4). `make deploy-check` proves they are
 * well-formed (Kubernetes schemas, hadolint, Compose's parser); this proves they are right for
 * Vitalis: the production configuration loads from exactly what the manifests give each app and
 * no more (least privilege), the unedited placeholder Secrets fail closed, the image's entry point
 * runs every app in apps/, and one image name and version is used everywhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { kafkaTopicDurability, metricsListenerAddress, parseConfig, probeServerAddress } from '@vitalis/config';
import { auditCheckpointSettings, gatewayConfigShape, withBaseUrl } from '../../../apps/gateway/src/config';
import { INGEST_PROBE_PORT, ingestConfigShape } from '../../../apps/ingest/src/config';
import { PROJECTOR_PROBE_PORT, projectorConfigShape } from '../../../apps/projector/src/config';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const K8S = 'infra/k8s';

// ---- the manifests, as plain objects -----------------------------------------------------------

interface Resource {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: unknown;
}
interface EnvFrom {
  configMapRef?: { name: string };
  secretRef?: { name: string };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  envFrom?: EnvFrom[];
  env?: unknown[];
  ports?: { name: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: unknown;
  startupProbe?: unknown;
}
interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  containers: Container[];
}
interface Workload extends Resource {
  spec: { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } };
}

const manifestFiles = readdirSync(join(root, K8S))
  .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
  .sort();
const resources: Resource[] = manifestFiles.flatMap((file) =>
  parseAllDocuments(read(join(K8S, file)))
    .map((doc) => doc.toJS() as Resource)
    .filter(Boolean),
);
const ofKind = <T extends Resource = Resource>(kind: string) => resources.filter((r) => r.kind === kind) as T[];
const named = <T extends Resource = Resource>(kind: string, name: string): T => {
  const found = resources.find((r) => r.kind === kind && r.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not in ${K8S}`);
  return found as T;
};
const workloads = [...ofKind<Workload>('Deployment'), ...ofKind<Workload>('Job')];
const deployment = (app: string) => named<Workload>('Deployment', `vitalis-${app}`);
const containerOf = (workload: Workload) => workload.spec.template.spec.containers[0]!;

/** The environment a container gets: its ConfigMaps' data and its Secrets' stringData, by name. */
function environmentOf(container: Container): { config: Record<string, string>; secret: Record<string, string> } {
  const config: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef)
      Object.assign(config, (named('ConfigMap', source.configMapRef.name) as Resource & { data: Record<string, string> }).data);
    if (source.secretRef)
      Object.assign(secret, (named('Secret', source.secretRef.name) as Resource & { stringData: Record<string, string> }).stringData);
  }
  return { config, secret };
}

/**
 * What an operator puts into the placeholder Secrets, shaped as the apps require (a URL, a long key).
 * A Secret key without a stand-in here fails the test: add one, and the rule it must satisfy.
 */
const STAND_INS: Record<string, string> = {
  DATABASE_URL: 'postgres://vitalis_app:app-password@db.example-hospital.internal:5432/vitalis?sslmode=verify-full',
  MIGRATION_DATABASE_URL: 'postgres://vitalis_owner:owner-password@db.example-hospital.internal:5432/vitalis?sslmode=verify-full',
  REDIS_URL: 'rediss://:redis-password@redis.example-hospital.internal:6379',
  KEY_ENCRYPTION_SECRET: 'k'.repeat(64),
  AUDIT_CHECKPOINT_KEY: 'a'.repeat(64),
};
function filledIn(secret: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(secret).map((key) => {
      const value = STAND_INS[key];
      if (value === undefined) throw new Error(`no stand-in for the Secret key ${key}`);
      return [key, value];
    }),
  );
}

/** The gateway's own start-up rules (main.ts): the schema, then the production checks. */
function loadGateway(env: Record<string, string>) {
  const parsed = parseConfig(gatewayConfigShape, env);
  return { config: withBaseUrl(parsed), checkpoints: auditCheckpointSettings(parsed) };
}

describe('deployment: Kubernetes manifests against the code', () => {
  it('the gateway starts in production with exactly what its ConfigMap and Secrets give, and every variable production demands is among them', () => {
    const { config, secret } = environmentOf(containerOf(deployment('gateway')));
    const env = { ...config, ...filledIn(secret) };
    const loaded = loadGateway(env);
    expect(loaded.config).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', sandbox: false, demoUsers: false });
    expect(loaded.checkpoints.dir).toBe(env.AUDIT_CHECKPOINT_DIR);
    // Which variables production refuses to start without, found by leaving each out in turn.
    const demanded = Object.keys(env).filter((key) => {
      const { [key]: _left, ...rest } = env;
      try {
        loadGateway(rest);
        return false;
      } catch {
        return true;
      }
    });
    // docs/security.md#production-settings: the rules the gateway enforces today.
    expect(demanded).toEqual(
      expect.arrayContaining(['KEY_ENCRYPTION_SECRET', 'SANDBOX_ENABLED', 'AUDIT_CHECKPOINT_KEY', 'AUDIT_CHECKPOINT_DIR']),
    );
    // Not enforced by the code, but without it the issuer and discovery documents name 127.0.0.1.
    expect(config.PUBLIC_BASE_URL).toMatch(/^https:\/\//);
    expect(loaded.config.baseUrl).toBe(config.PUBLIC_BASE_URL);
  });

  it('the placeholder Secrets are empty, so an unedited apply fails closed instead of running with a known key', () => {
    for (const s of ofKind<Resource & { stringData?: Record<string, string>; data?: unknown }>('Secret')) {
      expect(s.data, `Secret/${s.metadata.name} carries no encoded data`).toBeUndefined();
      for (const [key, value] of Object.entries(s.stringData ?? {})) expect(value, `Secret/${s.metadata.name} ${key}`).toBe('');
    }
    const { config, secret } = environmentOf(containerOf(deployment('gateway')));
    expect(() => loadGateway({ ...config, ...secret })).toThrow(/DATABASE_URL.*REDIS_URL.*KEY_ENCRYPTION_SECRET.*AUDIT_CHECKPOINT_KEY/);
  });

  it("the ingest and the projector start in production with theirs; no app holds the owner's credentials or another app's keys", () => {
    const ingest = environmentOf(containerOf(deployment('ingest')));
    expect(parseConfig(ingestConfigShape, { ...ingest.config, ...filledIn(ingest.secret) })).toMatchObject({ NODE_ENV: 'production' });
    const projector = environmentOf(containerOf(deployment('projector')));
    expect(parseConfig(projectorConfigShape, { ...projector.config, ...filledIn(projector.secret) })).toMatchObject({
      NODE_ENV: 'production',
    });

    const secretKeys = (app: string) => Object.keys(environmentOf(containerOf(deployment(app))).secret).sort();
    expect(secretKeys('gateway')).toEqual(['AUDIT_CHECKPOINT_KEY', 'DATABASE_URL', 'KEY_ENCRYPTION_SECRET', 'REDIS_URL']);
    expect(secretKeys('ingest')).toEqual(['DATABASE_URL', 'REDIS_URL']);
    expect(secretKeys('projector')).toEqual(['DATABASE_URL', 'REDIS_URL']); // its escalators' and watchdog's live notices
    const migrate = named<Workload>('Job', 'vitalis-migrate');
    expect(Object.keys(environmentOf(containerOf(migrate)).secret)).toEqual(['MIGRATION_DATABASE_URL']);
    for (const workload of workloads)
      expect(containerOf(workload).env, `${workload.metadata.name} takes its settings from envFrom only`).toBeUndefined();
  });

  it('every pod runs non-root, read-only, without capabilities or a service account token, with resources; no StatefulSet', () => {
    expect(ofKind('StatefulSet')).toEqual([]);
    expect(workloads.map((w) => w.metadata.name).sort()).toEqual([
      'vitalis-gateway',
      'vitalis-ingest',
      'vitalis-migrate',
      'vitalis-projector',
    ]);
    for (const workload of workloads) {
      const pod = workload.spec.template.spec;
      const name = workload.metadata.name;
      expect(pod.securityContext, name).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.automountServiceAccountToken, name).toBe(false);
      expect(pod.serviceAccountName, name).toBe(name);
      expect(named('ServiceAccount', name)).toMatchObject({ automountServiceAccountToken: false });
      for (const container of pod.containers) {
        expect(container.securityContext, name).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.resources?.requests, name).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
        expect(container.resources?.limits, name).toMatchObject({ memory: expect.any(String) });
      }
    }
  });

  it("the gateway's probes and Service use the port it listens on and the probe routes it serves; the HPA and a PDB cover it", () => {
    const gateway = containerOf(deployment('gateway'));
    const { config } = environmentOf(gateway);
    const metricsPort = parseConfig(gatewayConfigShape, config).METRICS_PORT;
    expect(gateway.ports).toEqual([
      { name: 'http', containerPort: Number(config.PORT), protocol: 'TCP' },
      { name: 'metrics', containerPort: metricsPort, protocol: 'TCP' },
    ]);
    expect(gateway.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(gateway.livenessProbe).toMatchObject({ httpGet: { path: '/livez', port: 'http' } });
    expect(gateway.startupProbe).toMatchObject({ httpGet: { path: '/livez', port: 'http' } });
    expect(read('apps/gateway/src/probes.ts')).toContain("'/readyz'");
    expect(read('apps/gateway/src/probes.ts')).toContain("'/livez'");
    expect(named('Service', 'vitalis-gateway')).toMatchObject({
      spec: { selector: { 'app.kubernetes.io/name': 'vitalis-gateway' }, ports: [{ targetPort: 'http' }] },
    });
    // The HPA owns the replica count; a count in the Deployment would reset it on every apply.
    expect(deployment('gateway').spec).not.toHaveProperty('replicas');
    expect(named('HorizontalPodAutoscaler', 'vitalis-gateway')).toMatchObject({
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'vitalis-gateway' }, minReplicas: 2 },
    });
  });

  it("ingest and projector: the probes name the probe server's production port; every app's metrics port is the one it listens on, reachable from the pod address and annotated for Prometheus; topics with 3 copies, 2 in sync", () => {
    const apps = [
      { app: 'ingest', shape: ingestConfigShape, probePort: INGEST_PROBE_PORT },
      { app: 'projector', shape: projectorConfigShape, probePort: PROJECTOR_PROBE_PORT },
    ] as const;
    for (const { app, shape, probePort } of apps) {
      const container = containerOf(deployment(app));
      const { config, secret } = environmentOf(container);
      const parsed = parseConfig(shape, { ...config, ...filledIn(secret) });
      // PROBE_PORT unset: the production default, which the probes must name
      expect(parsed.PROBE_PORT, app).toBeUndefined();
      expect(probeServerAddress(parsed, probePort), app).toEqual({ host: '0.0.0.0', port: probePort });
      expect(container.ports, app).toEqual([
        { name: 'probes', containerPort: probePort, protocol: 'TCP' },
        { name: 'metrics', containerPort: parsed.METRICS_PORT, protocol: 'TCP' },
      ]);
      expect(container.readinessProbe?.httpGet, app).toEqual({ path: '/readyz', port: 'probes' });
      expect(container.livenessProbe, app).toMatchObject({ httpGet: { path: '/livez', port: 'probes' } });
      expect(container.startupProbe, app).toMatchObject({ httpGet: { path: '/livez', port: 'probes' } });
    }
    for (const [app, shape] of [
      ['gateway', gatewayConfigShape],
      ['ingest', ingestConfigShape],
      ['projector', projectorConfigShape],
    ] as const) {
      const workload = deployment(app);
      const { config, secret } = environmentOf(containerOf(workload));
      const parsed = parseConfig(shape, { ...config, ...filledIn(secret) });
      expect(metricsListenerAddress(parsed), app).toEqual({ host: '0.0.0.0', port: parsed.METRICS_PORT });
      // the topics an app creates survive the loss of a broker (docs/operations.md#topology)
      expect(kafkaTopicDurability(parsed), app).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
      expect((workload.spec.template.metadata as { annotations?: Record<string, string> }).annotations, app).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(parsed.METRICS_PORT),
        'prometheus.io/path': '/metrics',
      });
    }
  });

  it('every Deployment has a PodDisruptionBudget and an egress policy selecting its pods, under a default deny', () => {
    interface Selector {
      matchLabels?: Record<string, string>;
      matchExpressions?: { key: string; operator: string; values: string[] }[];
    }
    const selects = (selector: Selector, labels: Record<string, string>) =>
      Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
      (selector.matchExpressions ?? []).every((e) => e.operator === 'In' && e.values.includes(labels[e.key] ?? ''));
    const pdbs = ofKind<Resource & { spec: { selector: Selector } }>('PodDisruptionBudget');
    const policies = ofKind<Resource & { spec: { podSelector: Selector; policyTypes: string[]; egress?: unknown[]; ingress?: unknown[] } }>(
      'NetworkPolicy',
    );
    const deny = policies.find((p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.egress && !p.spec.ingress);
    expect(deny?.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    for (const workload of ofKind<Workload>('Deployment')) {
      const labels = workload.spec.template.metadata.labels;
      expect(
        pdbs.filter((p) => selects(p.spec.selector, labels)),
        workload.metadata.name,
      ).toHaveLength(1);
    }
    for (const workload of workloads) {
      const labels = workload.spec.template.metadata.labels;
      const egress = policies.filter(
        (p) => p.spec.egress && Object.keys(p.spec.podSelector).length > 0 && selects(p.spec.podSelector, labels),
      );
      expect(egress.length, workload.metadata.name).toBeGreaterThan(0);
    }
  });

  it('kustomization.yaml lists every manifest file, and each file parses', () => {
    const kustomization = parse(read(join(K8S, 'kustomization.yaml'))) as { resources: string[] };
    expect([...kustomization.resources].sort()).toEqual(manifestFiles);
    expect(resources.length).toBeGreaterThan(manifestFiles.length);
  });
});

describe('deployment: the image', () => {
  const entrypoint = read('infra/docker/entrypoint.sh');
  const appCommands =
    /^\s*([a-z |]+)\)\s*\n\s*exec node --import tsx "apps\/\$command\/src\/main\.ts"/m
      .exec(entrypoint)?.[1]
      ?.split('|')
      .map((s) => s.trim()) ?? [];
  const otherCommands = [...entrypoint.matchAll(/^\s*([a-z-]+)\)\s*$/gm)].map((m) => m[1]!);
  const commands = [...appCommands, ...otherCommands];

  it('the entry point runs every app in apps/ by its name, each from the main.ts that exists', () => {
    const apps = readdirSync(join(root, 'apps'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(apps.length).toBeGreaterThan(0);
    expect([...appCommands].sort()).toEqual(apps);
    for (const app of apps) expect(existsSync(join(root, 'apps', app, 'src', 'main.ts')), app).toBe(true);
    expect(otherCommands.sort()).toEqual(['admin', 'migrate']);
    for (const script of entrypoint.matchAll(/exec node --import tsx ((?:libs|apps)\/[\w/-]+\.ts)/g))
      expect(existsSync(join(root, script[1]!)), script[1]).toBe(true);
  });

  it("the Dockerfile copies every workspace's package.json for npm ci, installs without dev dependencies, and runs as a non-root user", () => {
    const dockerfile = read('infra/docker/Dockerfile');
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const workspace of workspaces) expect(dockerfile, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/\n`);
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/local\/bin\/vitalis"\]$/m);
    // The apps run TypeScript through tsx at run time, so it must be a production dependency.
    expect((JSON.parse(read('package.json')) as { dependencies: Record<string, string> }).dependencies).toHaveProperty('tsx');
  });

  it('one image name everywhere, tagged with the package version, and every container command is one the entry point knows', () => {
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    for (const workload of workloads) {
      for (const container of workload.spec.template.spec.containers) {
        expect(container.image, workload.metadata.name).toBe(`vitalis:${version}`);
        expect(commands, workload.metadata.name).toContain(container.args?.[0]);
      }
    }
    const kustomization = parse(read(join(K8S, 'kustomization.yaml'))) as { images: { name: string; newTag: string }[] };
    expect(kustomization.images).toEqual([expect.objectContaining({ name: 'vitalis', newTag: version })]);

    const compose = parse(read('infra/docker-compose.apps.yml'), { merge: true }) as {
      services: Record<string, { image?: string; command?: string[]; profiles?: string[] }>;
    };
    const services = Object.entries(compose.services);
    expect(services.map(([name]) => name).sort()).toEqual(['gateway', 'ingest', 'migrate', 'projector', 'simulator']);
    for (const [name, service] of services) {
      expect(service.image, name).toMatch(/^vitalis:\$\{VITALIS_IMAGE_TAG:-dev\}$/);
      expect(commands, name).toContain(service.command?.[0]);
      expect(service.profiles, name).toEqual(name === 'simulator' ? ['demo'] : ['apps', 'demo']);
    }
  });

  it('in each compose profile the one-shot migrate is awaited by the apps (so `up --wait` accepts its exit 0)', () => {
    type Service = { profiles: string[]; depends_on?: Record<string, { condition: string }> };
    const compose = parse(read('infra/docker-compose.apps.yml'), { merge: true }) as { services: Record<string, Service> };
    for (const profile of ['apps', 'demo']) {
      const active = Object.entries(compose.services)
        .filter(([, s]) => s.profiles.includes(profile))
        .map(([name]) => name);
      expect(active, profile).toEqual(expect.arrayContaining(['migrate', 'gateway', 'ingest', 'projector']));
    }
    for (const app of ['gateway', 'ingest', 'projector']) {
      expect(compose.services[app]!.depends_on?.migrate, app).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('the compose gateway is given every variable production demands', () => {
    const compose = parse(read('infra/docker-compose.apps.yml'), { merge: true }) as {
      services: Record<string, { environment: Record<string, string> }>;
    };
    const environment = compose.services.gateway!.environment;
    for (const key of [
      'NODE_ENV',
      'KEY_ENCRYPTION_SECRET',
      'SANDBOX_ENABLED',
      'AUDIT_CHECKPOINT_KEY',
      'AUDIT_CHECKPOINT_DIR',
      'PUBLIC_BASE_URL',
      'DATABASE_URL',
      'REDIS_URL',
      'KAFKA_BROKERS',
    ]) {
      expect(environment, key).toHaveProperty(key);
    }
    expect(environment.NODE_ENV).toBe('production');
    expect(environment.DATABASE_URL).toMatch(/^postgres:\/\/vitalis_app@/);
    // The production secrets are demanded from the operator (${VAR:?...}), never defaulted.
    expect(environment.KEY_ENCRYPTION_SECRET).toMatch(/^\$\{KEY_ENCRYPTION_SECRET:\?/);
    expect(environment.AUDIT_CHECKPOINT_KEY).toMatch(/^\$\{AUDIT_CHECKPOINT_KEY:\?/);
  });
});
