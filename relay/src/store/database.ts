import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type QueryExecutorProvider,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger';
import { StoreUnavailable } from './errors';
import { migrate } from './migrate';
import type { Schema } from './schema';

export type Backend = 'sqlite' | 'postgres';
export type Db = Kysely<Schema>;

/** Where the store lives: Postgres when `databaseUrl` is set, else `tandem.db` in the data dir. */
export interface StoreLocation {
  dataDir: string;
  databaseUrl?: string | undefined;
}

export interface Database {
  db: Db;
  backend: Backend;
  /**
   * Inside a transaction: waits until no other transaction holds the lock `name`, across every relay on
   * the database (Postgres). SQLite needs none: the process's one connection runs one transaction at a time.
   */
  lock(trx: QueryExecutorProvider, name: string): Promise<void>;
  close(): Promise<void>;
}

const POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 10_000;
/** Advisory locks taken by Tandem use this first key, so they never meet another application's. */
const LOCK_CLASS = 0x7464; // "td"

// Postgres sends bigint (int8) and numeric (what sum() of a bigint returns) as strings, SQLite as
// numbers: read both as numbers, so every row looks the same whichever backend it came from. Epoch
// milliseconds and counters stay far below 2^53.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Opens the store's database, migrated to the latest schema. */
export async function openDatabase(location: StoreLocation, logger?: Logger): Promise<Database> {
  return location.databaseUrl ? openPostgres(location.databaseUrl, logger) : openSqlite(location.dataDir, logger);
}

async function openSqlite(dataDir: string, logger: Logger | undefined): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(join(dataDir, 'tandem.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  // Off while migrating, so a migration may rebuild a table without cascading deletes (SQLite's own
  // recipe); the migration checks the keys itself before it commits.
  sqlite.pragma('foreign_keys = OFF');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
  // One connection: Kysely queues queries on it, so transactions are serialized within the process.
  const database: Database = { db, backend: 'sqlite', lock: async () => undefined, close: () => db.destroy() };
  await migrated(database, logger);
  sqlite.pragma('foreign_keys = ON');
  return database;
}

async function openPostgres(url: string, logger: Logger | undefined): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types,
  });
  // A connection that breaks (server restart) emits 'error' on its client, idle or in use; unheard, that
  // would end the process. The query in flight fails by itself, and the pool drops the client.
  pool.on('connect', (client) =>
    client.on('error', (error) => logger?.warn({ err: error }, 'a database connection failed')),
  );
  pool.on('error', () => undefined); // the idle client's own listener above has logged it
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: reportingOutages(pool) }) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    const detail = error instanceof StoreUnavailable ? error.detail : (error as Error).message;
    throw new Error(
      `Cannot connect to the database at ${redactUrl(url)}: ${detail}. Is Postgres running, and do the user and database in TANDEM_DATABASE_URL exist?`,
    );
  }
  return migrated(
    {
      db,
      backend: 'postgres',
      async lock(trx, name) {
        await sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${name}))`.execute(trx);
      },
      close: () => db.destroy(),
    },
    logger,
  );
}

async function migrated(database: Database, logger: Logger | undefined): Promise<Database> {
  try {
    await migrate(database, logger);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** pg's codes for a lost connection: class 08 (connection exception) and 57P (server shutting down). */
const CONNECTION_LOST = /^(08|57P)|^(ECONNRESET|EPIPE|ECONNREFUSED|ETIMEDOUT)$/;

/**
 * The pool as Kysely sees it, where a database that cannot be reached (stopped, restarting, refusing)
 * fails the query with StoreUnavailable, which says so (and when to retry), rather than an anonymous failure.
 */
function reportingOutages(pool: pg.Pool): PostgresPool {
  const lost = (error: { code?: string; message?: string }) =>
    CONNECTION_LOST.test(error.code ?? '') || /Connection terminated|not queryable/.test(error.message ?? '');
  return {
    async connect() {
      const client = await pool.connect().catch((error: Error) => {
        throw new StoreUnavailable(error.message);
      });
      // Kysely streams no query through a cursor here (no `cursor` in the dialect), so only the
      // (text, values) form of query() is called.
      const query = ((text: string, values: readonly unknown[]) =>
        client.query(text, [...values]).catch((error: Error) => {
          throw lost(error) ? new StoreUnavailable(error.message) : error;
        })) as unknown as PostgresPoolClient['query'];
      return { query, release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(an unparseable URL)';
  }
}
