import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { postgresAt } from '@tandem/e2e/fixtures';
import { type Logger, pino } from 'pino';
import { inject } from 'vitest';
import { type Env, loadConfig } from '../src/config';
import { type Relay, type StartOptions, startRelay } from '../src/server';

export const TEST_KEY = 'tdm_test_key_0123456789abcdefghijklmnop';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestRelay extends Relay {
  key: string;
  dataDir: string;
  /** The Postgres database of its store, when TANDEM_TEST_DATABASE=postgres. */
  databaseUrl: string | undefined;
  /** Calls the API with the test key (or `options.key`; `null` sends none). */
  api<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /** A second account with its own API key. */
  newAccount(email: string): Promise<string>;
}

/** A logger that keeps every line it writes, parsed, so tests can assert on what was logged. */
export function memoryLogger(level = 'info'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/**
 * A real relay on an ephemeral loopback port with a temp data dir; `close()` removes everything. With
 * TANDEM_TEST_DATABASE=postgres its store is a fresh database on the run's Postgres server. With
 * `options.dataDir` (and `options.databaseUrl`, a database an earlier relay of the test used) it leaves its
 * data in place: a restart on the same data.
 */
export async function startTestRelay(
  overrides: Partial<Env> = {},
  options: Pick<StartOptions, 'logger' | 'logDestination' | 'network' | 'clock'> & {
    dataDir?: string;
    databaseUrl?: string;
  } = {},
): Promise<TestRelay> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tandem-test-'));
  const postgres = process.env.TANDEM_TEST_DATABASE === 'postgres' ? postgresAt(inject('postgresAdminUrl')) : undefined;
  const databaseUrl = options.databaseUrl ?? (await postgres?.createDatabase());
  const config = loadConfig(
    { CHROMIUM_PATH: process.env.CHROMIUM_PATH },
    {
      PORT: 0,
      HOST: '127.0.0.1',
      TANDEM_DATA_DIR: dataDir,
      TANDEM_DATABASE_URL: databaseUrl,
      TANDEM_BOOTSTRAP_KEY: TEST_KEY,
      LOG_LEVEL: 'silent',
      ...overrides,
    },
  );
  const { dataDir: _dataDir, databaseUrl: _databaseUrl, ...startOptions } = options;
  const relay = await startRelay(config, {
    ...startOptions,
    // With a destination the relay builds its own logger (and its redaction); else a quiet one.
    ...(startOptions.logger || startOptions.logDestination
      ? {}
      : { logger: pino({ level: process.env.TANDEM_TEST_LOG ?? 'silent' }) }),
  });
  return {
    ...relay,
    key: TEST_KEY,
    dataDir,
    databaseUrl,
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? TEST_KEY : options.key;
      if (key !== null) headers.X_SERVICE_API_KEY = key;
      let payload: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${relay.url}${path}`, { method, headers, body: payload });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON (e.g. HTML docs): leave the text.
      }
      return { status: res.status, headers: res.headers, body: body as never };
    },
    async newAccount(email) {
      const account = await relay.services.store.accounts.create(email, 'correct horse battery staple');
      return (await relay.services.store.apiKeys.create(account.id, 'test')).key;
    },
    async close() {
      await relay.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl && !options.dataDir) await postgres?.dropDatabase(databaseUrl);
    },
  };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A loopback port that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
