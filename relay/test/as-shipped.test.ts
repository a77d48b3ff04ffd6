// The relay started exactly as the README says — `npm start` in a copy of the repository, default
// settings, a HOME of its own — and the README's quickstart walked against it. Every other test may use
// temporary directories and ports; this one may not (it is how the screenshot 404 under `.tandem` went
// unnoticed), so it needs the default port 8787 and says so when that port is taken.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bannerField, cleanEnv, type RelayProcess, spawnRelay } from './relay-process';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** npm, tsx, a first start and a real Chromium on a loaded 2-core machine: minutes, not the default 60 s. */
const AS_SHIPPED_MS = 240_000;
const DEFAULT_PORT = 8787;
/** Build output, caches and local state that a fresh clone does not have. */
const NOT_COPIED = new Set(['node_modules', '.git', '.tandem', '.env', '.output', '.wxt', 'dist', 'test-results']);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A copy of the repository as a fresh clone has it (sources, no state), sharing the installed node_modules. */
function copyOfRepository(): string {
  const copy = join(tempDir('tandem-as-shipped-'), 'tandem');
  cpSync(REPO, copy, {
    recursive: true,
    filter: (source) => !NOT_COPIED.has(basename(source)) && !source.startsWith(join(REPO, '.ci', 'out')),
  });
  for (const dir of ['', ...readdirSync(REPO)]) {
    const modules = join(REPO, dir, 'node_modules');
    if (existsSync(modules)) symlinkSync(modules, join(copy, dir, 'node_modules'), 'dir');
  }
  return copy;
}

async function assertPortFree(port: number): Promise<void> {
  const server = createServer();
  await new Promise<void>((ready, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${port} on 127.0.0.1 is in use. This test starts Tandem exactly as the README says, on its default port: stop whatever listens on ${port} (another Tandem?) and run it again.`,
            )
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => ready());
  });
  await new Promise<void>((done) => server.close(() => done()));
}

/** `npm <args>` in `cwd`, with none of this environment's settings and a HOME of its own. */
function npm(args: string[], cwd: string): RelayProcess {
  const relay = spawnRelay(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
    cwd,
    env: cleanEnv({ HOME: tempDir('tandem-home-') }),
  });
  cleanups.push(() => relay.stop());
  return relay;
}

describe('as shipped', () => {
  it(
    "npm start from the repository root, with defaults, then the README's quickstart",
    async () => {
      await assertPortFree(DEFAULT_PORT);
      const copy = copyOfRepository();
      const relay = npm(['start'], copy);
      const banner = await relay.banner;

      const key = bannerField(banner, 'API key');
      const api = bannerField(banner, 'API');
      const base = api.replace(/\/v1\/web$/, '');
      expect(base).toBe(`http://127.0.0.1:${DEFAULT_PORT}`);
      expect(bannerField(banner, 'account email')).toBe('admin@localhost');
      // The default data directory is where npm start was run, not inside the relay's package.
      expect(existsSync(join(copy, '.tandem', 'tandem.db'))).toBe(true);
      expect(existsSync(join(copy, 'relay', '.tandem'))).toBe(false);

      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { X_SERVICE_API_KEY: key, ...(body ? { 'Content-Type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const json = (await res.json()) as Record<string, unknown>;
        expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBe(200);
        return json;
      };
      const fetchImage = async (url: string) => {
        const res = await fetch(url);
        const png = Buffer.from(await res.arrayBuffer());
        expect(res.status, `${url}: ${png.toString().slice(0, 200)}`).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(png.subarray(1, 4).toString()).toBe('PNG');
      };

      const created = await call('POST', '/v1/web/session', { url: `${base}/docs`, include_screenshot: true });
      expect(created).toMatchObject({ status: 'CONTINUE', url: `${base}/docs` });
      expect(created.message).toContain('Tandem API reference');
      await fetchImage(created.screenshot as string);
      const id = created.session_id as string;
      expect(await call('GET', '/v1/web/sessions')).toEqual({ session_ids: [id] });
      const { screenshot } = await call('GET', `/v1/web/screenshot/${id}`);
      expect(screenshot).toMatch(new RegExp(`^${base}/v1/web/screenshots/\\w+\\.png$`));
      await fetchImage(screenshot as string);
      expect(await call('DELETE', `/v1/web/session/${id}`)).toEqual({ status: 'closed', session_id: id });

      const browsed = await call('POST', '/v1/web/browse', {
        cmd: 'click Create session then scroll down',
        url: `${base}/docs`,
        max_steps: 5,
      });
      expect(browsed, JSON.stringify(browsed)).toMatchObject({ status: 'DONE', screenshot: '' });
      await call('DELETE', `/v1/web/session/${browsed.session_id}`);

      await relay.stop();
      // Nothing logged at error level or above (pino's 50 and 60) on the way.
      expect(relay.output()).not.toMatch(/"level":(50|60)/);
    },
    AS_SHIPPED_MS,
  );

  it(
    'npm start from another folder reads .env there and keeps its data there',
    async () => {
      const copy = copyOfRepository();
      const project = tempDir('tandem-project-');
      // A free port of its own: the as-shipped test above holds the default one.
      writeFileSync(join(project, '.env'), 'PORT=0\nTANDEM_ADMIN_EMAIL=ops@example.com\n');
      const relay = npm(['--prefix', copy, 'start'], project);
      const banner = await relay.banner;
      expect(bannerField(banner, 'account email')).toBe('ops@example.com');
      const health = await fetch(`${bannerField(banner, 'API reference').replace(/\/docs$/, '')}/healthz`);
      expect(health.status).toBe(200);
      expect(existsSync(join(project, '.tandem', 'tandem.db'))).toBe(true);
      expect(existsSync(join(copy, '.tandem'))).toBe(false);
    },
    AS_SHIPPED_MS,
  );
});
