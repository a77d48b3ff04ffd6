import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, type QueryExecutorProvider, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger';
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
  // A connection that breaks while idle (server restart) is dropped from the pool; unhandled, it would
  // end the process.
  pool.on('error', (error) => logger?.warn({ err: error }, 'an idle database connection failed'));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw new Error(
      `Cannot connect to the database at ${redactUrl(url)}: ${(error as Error).message}. Is Postgres running, and do the user and database in TANDEM_DATABASE_URL exist?`,
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
