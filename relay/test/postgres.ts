/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` into a temp dir, started on a loopback
 * port with its socket in that dir, stopped and deleted by `stop()`. Postgres refuses to run as root, so
 * as root the server runs as the `postgres` user (Debian's package creates it) or `nobody`.
 *
 * `TANDEM_TEST_POSTGRES_URL` (a superuser URL such as postgres://me@127.0.0.1:5432/postgres) uses a
 * running server instead; `TANDEM_TEST_PG_BIN` names the directory holding initdb and pg_ctl.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client } from 'pg';

export interface PostgresServer {
  /** A superuser URL for the `postgres` database. */
  adminUrl: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  /** Stops the server, keeping its data and port, and `resume()` starts it again (started clusters only). */
  pause?(): void;
  resume?(): void;
  stop(): Promise<void>;
}

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The directory holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const candidates = [process.env.TANDEM_TEST_PG_BIN, ...(process.env.PATH ?? '').split(delimiter)];
  // Debian installs the server outside PATH, one directory per major version: take the newest.
  if (existsSync(DEBIAN_ROOT)) {
    const versions = readdirSync(DEBIAN_ROOT).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(DEBIAN_ROOT, v, 'bin')));
  }
  return candidates.find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** Whether a Postgres server can be had: a URL to one, or the binaries to start one. */
export function postgresAvailable(): boolean {
  return Boolean(process.env.TANDEM_TEST_POSTGRES_URL) || postgresBinDir() !== undefined;
}

export const POSTGRES_MISSING =
  'PostgreSQL is not installed: `apt-get install -y postgresql` (or set TANDEM_TEST_PG_BIN to the directory ' +
  'holding initdb and pg_ctl, or TANDEM_TEST_POSTGRES_URL to a superuser URL of a running server).';

/** Starts a cluster (or attaches to TANDEM_TEST_POSTGRES_URL). Throws with the server's log when it cannot. */
export async function startPostgres(): Promise<PostgresServer> {
  const external = process.env.TANDEM_TEST_POSTGRES_URL;
  if (external) return postgresAt(external);
  const bin = postgresBinDir();
  if (!bin) throw new Error(POSTGRES_MISSING);

  const dir = mkdtempSync(join(tmpdir(), 'tandem-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const owner = process.getuid?.() === 0 ? unprivilegedUser() : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const run = (tool: string, args: string[]) => {
    const result = spawnSync(join(bin, tool), args, { cwd: dir, encoding: 'utf8', ...owner });
    if (result.status !== 0) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(
        `${tool} failed (${result.error?.message ?? `exit ${result.status}`}): ${result.stderr}${serverLog}`,
      );
    }
  };
  const stopCluster = () => {
    spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], { cwd: dir, ...owner });
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // No fsync and the C locale: a throwaway cluster needs no durability, and minimal images have no locales.
    run('initdb', ['-D', data, '-U', 'tandem', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    let port = 0;
    const start = () => {
      const options = `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
      run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
    };
    // Another process may take the free port between freePort() and the server's bind: try again then.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        start();
        break;
      } catch (error) {
        if (attempt === 3 || !readFileSync(log, 'utf8').includes('could not bind')) throw error;
      }
    }
    // A test process that dies without stop() must not leave a server behind.
    process.once('exit', stopCluster);
    return {
      ...postgresAt(`postgres://tandem@127.0.0.1:${port}/postgres`, async () => {
        process.removeListener('exit', stopCluster);
        stopCluster();
      }),
      pause: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
      resume: start,
    };
  } catch (error) {
    stopCluster();
    throw error;
  }
}

function unprivilegedUser(): { uid: number; gid: number } {
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }));
      return { uid, gid };
    } catch {
      // No such user: try the next.
    }
  }
  throw new Error('Running as root and neither a "postgres" nor a "nobody" user exists to run Postgres as.');
}

/** A server already running at `adminUrl`; `stop()` runs `stop` (by default, nothing). */
export function postgresAt(adminUrl: string, stop = async () => undefined): PostgresServer {
  const admin = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    adminUrl,
    async createDatabase() {
      const name = `tandem_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.href;
    },
    async dropDatabase(url) {
      const name = new URL(url).pathname.slice(1);
      if (!/^tandem_test_\w+$/.test(name)) throw new Error(`not a test database: ${name}`);
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
    stop,
  };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
