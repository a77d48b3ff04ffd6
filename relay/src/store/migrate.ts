import { type Kysely, sql } from 'kysely';
import type { Logger } from '../logger';
import type { Database } from './database';
import { LEGACY_MIGRATIONS, MIGRATIONS } from './migrations';
import type { Schema } from './schema';

interface MigrationsTable {
  name: string;
  applied_at: number;
}
type MigrationsDb = Kysely<Schema & { schema_migrations: MigrationsTable }>;

/**
 * Applies the pending migrations in one transaction: a database is either fully upgraded or left as it
 * was. Concurrent starts wait for each other (Postgres: an advisory lock; SQLite: BEGIN IMMEDIATE).
 * Returns the names applied.
 */
export async function migrate(database: Database, logger?: Logger): Promise<string[]> {
  const { backend } = database;
  return database.db.connection().execute(async (connection) => {
    const db: MigrationsDb = connection.withTables<{ schema_migrations: MigrationsTable }>();
    await sql.raw(backend === 'sqlite' ? 'begin immediate' : 'begin').execute(db);
    try {
      await database.lock(db, 'migrations');
      await db.schema
        .createTable('schema_migrations')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('applied_at', 'bigint', (c) => c.notNull())
        .execute();
      const applied = new Set((await db.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name));
      const known = new Set(MIGRATIONS.map((m) => m.name));
      const unknown = [...applied].filter((name) => !known.has(name));
      if (unknown.length) {
        throw new Error(
          `The database was migrated by a newer Tandem (${unknown.join(', ')} is unknown here): run that version or a later one.`,
        );
      }
      if (backend === 'sqlite' && applied.size === 0) {
        for (const name of await adoptLegacy(db)) applied.add(name);
      }

      const done: string[] = [];
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.name)) continue;
        await migration.up(db, backend);
        await db.insertInto('schema_migrations').values({ name: migration.name, applied_at: Date.now() }).execute();
        done.push(migration.name);
      }
      if (backend === 'sqlite') await checkForeignKeys(db);
      await sql`commit`.execute(db);
      if (done.length) logger?.info({ migrations: done, backend }, 'database migrated');
      return done;
    } catch (error) {
      await sql`rollback`.execute(db).catch(() => undefined);
      throw error;
    }
  });
}

/** A database made before `schema_migrations` counted its migrations in `PRAGMA user_version`. */
async function adoptLegacy(db: MigrationsDb): Promise<string[]> {
  const version = (await sql<{ user_version: number }>`pragma user_version`.execute(db)).rows[0]?.user_version ?? 0;
  const adopted = MIGRATIONS.slice(0, Math.min(version, LEGACY_MIGRATIONS)).map((m) => m.name);
  for (const name of adopted) {
    await db.insertInto('schema_migrations').values({ name, applied_at: Date.now() }).execute();
  }
  return adopted;
}

/** Foreign keys are off while SQLite migrates; a migration must not have left a dangling reference. */
async function checkForeignKeys(db: MigrationsDb): Promise<void> {
  const broken = (await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(db)).rows;
  if (broken.length) {
    const where = [...new Set(broken.map((r) => `${r.table} → ${r.parent}`))].join(', ');
    throw new Error(`A migration left rows whose foreign keys point nowhere (${where}); nothing was changed.`);
  }
}
