// deploy/ cannot be run here (no Docker engine): what can be checked without it is checked here. The
// compose file is read as Compose reads it (YAML with merge keys, `${VAR…}` from .env.example), every
// relay's environment goes through the relay's own configuration check, and the cluster's invariants
// hold: one node id and address per relay, one Redis, database, bucket and public URL for all, and a
// load balancer that knows every relay. relay/test/deploy-lb.test.ts runs deploy/nginx.conf itself.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/config';
import { parseS3Url } from '../src/store/s3-url';

const DEPLOY = join(dirname(fileURLToPath(import.meta.url)), '../../deploy');
const read = (file: string) => readFileSync(join(DEPLOY, file), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
  cap_add?: string[];
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

/** `.env.example` as Compose reads a .env file. */
function dotEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match?.[1]) vars[match[1]] = match[2] ?? '';
  }
  return vars;
}

/** Compose's interpolation: `$$`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`. */
function interpolate(text: string, vars: Record<string, string>, referenced: Set<string>): string {
  return text.replace(
    /\$\$|\$\{([A-Z_][A-Z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (all, name?: string, colon?: string, op?: string, arg?: string) => {
      if (all === '$$') return '$';
      if (!name) return all;
      referenced.add(name);
      const value = vars[name];
      const unset = value === undefined || (colon === ':' && value === '');
      if (!unset) return value ?? '';
      if (op === '?') throw new Error(`${name} is required: ${arg}`);
      return op === '-' ? (arg ?? '') : '';
    },
  );
}

const raw = read('docker-compose.yml');
const example = dotEnv(read('.env.example'));
const referenced = new Set<string>();
const compose = parse(interpolate(raw, example, referenced), { merge: true }) as Compose;
const services = compose.services;
const relays = Object.entries(services).filter(([, s]) => s.command?.join(' ') === 'npm start');
const browsers = Object.entries(services).filter(
  ([, s]) => s.command?.slice(0, 3).join(' ') === 'npm run tandem-browser',
);
const envOf = (service: Service) =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]));
const nginx = read('nginx.conf');

describe('deploy/docker-compose.yml', () => {
  it('runs two relays and two browser servers from the one image built from the repository', () => {
    expect(relays.map(([name]) => name)).toEqual(['relay-1', 'relay-2']);
    expect(browsers.map(([name]) => name)).toEqual(['browser-1', 'browser-2']);
    for (const [, service] of [...relays, ...browsers]) {
      expect(service.image).toBe('tandem:local');
      expect(service.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
    }
    expect(Object.keys(services).sort()).toEqual(
      ['browser-1', 'browser-2', 'lb', 'minio', 'minio-setup', 'postgres', 'redis', 'relay-1', 'relay-2'].sort(),
    );
  });

  it('gives every relay a configuration the relay accepts, with its own node id, address and egress URL', () => {
    const ids = new Set<string>();
    for (const [name, service] of relays) {
      const env = envOf(service);
      const config = loadConfig(env); // throws with one line per bad value
      expect(ids.has(config.TANDEM_NODE_ID), `${name}: TANDEM_NODE_ID taken`).toBe(false);
      ids.add(config.TANDEM_NODE_ID);
      expect(config.TANDEM_NODE_URL).toBe(`http://${name}:${config.PORT}`);
      expect(config.TANDEM_EGRESS_URL).toBe(`http://${name}:${config.TANDEM_EGRESS_PORT}`);
      expect(config.TANDEM_EGRESS_PORT).toBeGreaterThan(0);
      expect(config.HOST).toBe('0.0.0.0');
      // Listening beyond loopback turns the private-network guard on, as it should be in a cluster.
      expect(config.TANDEM_ALLOW_PRIVATE_NETWORK).toBe(false);
    }
    expect(ids.size).toBe(relays.length);
  });

  it('has every relay share one Redis, database, bucket, set of browsers, public URL and bootstrap key', () => {
    for (const setting of [
      'TANDEM_REDIS_URL',
      'TANDEM_DATABASE_URL',
      'TANDEM_S3_URL',
      'TANDEM_BROWSER_WS_ENDPOINTS',
      'TANDEM_PUBLIC_URL',
      'TANDEM_BOOTSTRAP_KEY',
    ]) {
      const values = new Set(relays.map(([, s]) => envOf(s)[setting]));
      expect(values.size, setting).toBe(1);
      expect([...values][0], setting).toBeTruthy();
    }
  });

  it('points every URL a relay is given at a service of the file, on the port that service listens on', () => {
    const env = envOf(relays[0]![1]);
    const hosts = [
      new URL(env.TANDEM_REDIS_URL!).host,
      new URL(env.TANDEM_DATABASE_URL!).host,
      new URL(parseS3Url(env.TANDEM_S3_URL!).endpoint).host,
      ...env.TANDEM_BROWSER_WS_ENDPOINTS!.split(',').map((url) => new URL(url).host),
      ...relays.map(([, s]) => new URL(envOf(s).TANDEM_NODE_URL!).host),
    ];
    expect(hosts).toEqual(
      expect.arrayContaining(['redis:6379', 'postgres:5432', 'minio:9000', 'browser-1:9323', 'browser-2:9323']),
    );
    for (const host of hosts) expect(Object.keys(services), host).toContain(host.split(':')[0]);
    // Each browser server listens where the relays look for it, on the path they use.
    const endpoints = env.TANDEM_BROWSER_WS_ENDPOINTS!.split(',');
    for (const [name, service] of browsers) {
      const args = service.command ?? [];
      const endpoint = `ws://${name}:${args[args.indexOf('--port') + 1]}${args[args.indexOf('--path') + 1]}`;
      expect(endpoints).toContain(endpoint);
      expect(args[args.indexOf('--host') + 1]).toBe('0.0.0.0');
    }
    expect(endpoints).toHaveLength(browsers.length);
    // The bucket minio-setup makes, for the key the relays use, allowing what the image store does there.
    const { bucket, accessKeyId, secretAccessKey } = parseS3Url(env.TANDEM_S3_URL!);
    const setup = services['minio-setup']!;
    const script = setup.command?.[0] ?? '';
    expect(spawnSync('sh', ['-n', '-c', script]).status, 'the setup script parses').toBe(0);
    expect(script).toContain(`mc mb --ignore-existing local/${bucket}`);
    expect(envOf(setup)).toMatchObject({ S3_ACCESS_KEY: accessKeyId, S3_SECRET_KEY: secretAccessKey });
    const policy = JSON.parse(/echo '(\{.*\})' >/.exec(script)?.[1] ?? '{}') as {
      Statement: { Action: string[]; Resource: string[] }[];
    };
    expect(policy.Statement.flatMap((s) => s.Action.map((action) => `${action} ${s.Resource.join()}`)).sort()).toEqual([
      `s3:DeleteObject arn:aws:s3:::${bucket}/*`,
      `s3:GetObject arn:aws:s3:::${bucket}/*`,
      `s3:ListBucket arn:aws:s3:::${bucket}`,
      `s3:PutObject arn:aws:s3:::${bucket}/*`,
    ]);
    const postgres = envOf(services.postgres!);
    const database = new URL(env.TANDEM_DATABASE_URL!);
    expect([database.username, database.password, database.pathname.slice(1)]).toEqual([
      postgres.POSTGRES_USER,
      postgres.POSTGRES_PASSWORD,
      postgres.POSTGRES_DB,
    ]);
  });

  it('starts each part once what it needs is healthy, and checks the health of everything that stays up', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'minio-setup') continue; // runs once and exits
      expect(service.healthcheck?.test.length, `${name} has a healthcheck`).toBeGreaterThan(0);
    }
    for (const [name, service] of relays) {
      expect(service.healthcheck?.test.join(' '), name).toContain(`http://127.0.0.1:${envOf(service).PORT}/healthz`);
      expect(service.depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        'minio-setup': { condition: 'service_completed_successfully' },
        'browser-1': { condition: 'service_healthy' },
        'browser-2': { condition: 'service_healthy' },
      });
    }
    expect(services['minio-setup']?.depends_on).toEqual({ minio: { condition: 'service_healthy' } });
    expect(services.lb?.depends_on).toEqual(
      Object.fromEntries(relays.map(([name]) => [name, { condition: 'service_healthy' }])),
    );
  });

  it('keeps data in named volumes and publishes only the load balancer', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['minio-data', 'postgres-data']);
    expect(services.postgres?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(services.minio?.volumes).toEqual(['minio-data:/data']);
    const published = Object.entries(services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['lb']);
    expect(services.lb?.volumes).toEqual(['./nginx.conf:/etc/nginx/nginx.conf:ro']);
  });

  it('takes every secret from .env, requiring it, and .env.example names every variable the file uses', () => {
    for (const secret of [
      'TANDEM_BOOTSTRAP_KEY',
      'POSTGRES_PASSWORD',
      'MINIO_ROOT_PASSWORD',
      'S3_SECRET_KEY',
      'BROWSER_TOKEN',
    ]) {
      expect(raw, secret).toMatch(new RegExp(`\\$\\{${secret}:\\?`));
      expect(example[secret], secret).toMatch(/^change-me/);
    }
    for (const name of referenced) expect(Object.keys(example), name).toContain(name);
    // Values that go into URLs must not need escaping there.
    for (const [name, value] of Object.entries(example)) expect(value, name).toMatch(/^[A-Za-z0-9@.:/_-]*$/);
    expect(() => interpolate(raw, { ...example, S3_SECRET_KEY: '' }, new Set())).toThrow(/S3_SECRET_KEY is required/);
  });
});

describe('deploy/nginx.conf and deploy/Dockerfile', () => {
  it('balance over every relay, pass the API key header, stream SSE and upgrade the extension socket', () => {
    const upstream = /upstream relays \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const servers = [...upstream.matchAll(/^\s*server ([\w.-]+:\d+)/gm)].map((m) => m[1]);
    expect(servers).toEqual(relays.map(([name, s]) => `${name}:${envOf(s).PORT}`));
    expect(nginx).toMatch(/^\s*underscores_in_headers on;/m);
    expect(nginx).toMatch(/^\s*proxy_buffering off;/m);
    expect(nginx).toMatch(/^\s*proxy_read_timeout 1h;/m);
    expect(nginx).toMatch(/location = \/v1\/extension\/ws \{/);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(services.lb?.ports).toEqual([`${example.LB_PORT}:${/listen (\d+);/.exec(nginx)?.[1]}`]);
    expect(example.TANDEM_PUBLIC_URL).toBe(`http://localhost:${example.LB_PORT}`);
  });

  it("runs as a user that is not root, on Node 22 with Debian's Chromium", () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:22-bookworm-slim AS base$/m);
    expect(dockerfile).toMatch(/apt-get install .*\bchromium\b/);
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    const users = [...dockerfile.matchAll(/^USER (\S+)$/gm)].map((m) => m[1]);
    expect(users.at(-1)).toBe('node');
    expect(dockerfile).toMatch(/^CMD \["npm", "start"\]$/m);
  });
});
