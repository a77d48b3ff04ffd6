import { type Kysely, sql } from 'kysely';
import type { Backend } from './database';

/**
 * One schema change, written once with the query builder so it runs on SQLite and Postgres alike.
 * Migrations see the schema as it was when they were written, not `Schema`, hence the untyped handle.
 */
export interface Migration {
  /** Unique and sortable: `NNNN_what_it_does`. Recorded in `schema_migrations` once applied. */
  name: string;
  /** `backend` is for the rare change the two cannot share (SQLite cannot alter a column's type). */
  // biome-ignore lint/suspicious/noExplicitAny: a migration runs against an older schema than `Schema` describes.
  up(db: Kysely<any>, backend: Backend): Promise<void>;
}

/**
 * The first LEGACY_MIGRATIONS entries are the schema the pre-query-builder store made and counted in
 * `PRAGMA user_version`; a SQLite database at user_version N adopts the first N as applied.
 */
export const LEGACY_MIGRATIONS = 3;

/**
 * Every migration, in order. Append only: never edit or reorder one that has shipped, since databases
 * out there have already applied it.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001_accounts_api_keys',
    async up(db) {
      // The email's uniqueness (case-insensitive) comes with 0004.
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
    },
  },
  {
    name: '0002_skills_agents_usage',
    async up(db) {
      await db.schema
        .createTable('skills')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('host_pattern', 'text', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('skills_account').on('skills').column('account_id').execute();
      await db.schema
        .createTable('agents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('instructions', 'text', (c) => c.notNull())
        .addColumn('default_mode', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agents_account').on('agents').column('account_id').execute();
      await db.schema
        .createTable('usage')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('steps', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('prompt_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('completion_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('cached_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_pkey', ['account_id', 'day'])
        .execute();
    },
  },
  {
    name: '0003_devices',
    async up(db) {
      await db.schema
        .createTable('devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('devices_account').on('devices').column('account_id').execute();
    },
  },
  {
    name: '0004_accounts_email_lower',
    async up(db) {
      // Emails are kept trimmed and lower-cased, and unique as such on both backends (SQLite databases
      // from before had COLLATE NOCASE instead, which Postgres has no equivalent of).
      const rows: { id: string; email: string }[] = await db.selectFrom('accounts').select(['id', 'email']).execute();
      const seen = new Map<string, string>();
      for (const { id, email } of rows) {
        const normal = email.trim().toLowerCase();
        const other = seen.get(normal);
        if (other) {
          throw new Error(
            `Accounts ${other} and ${id} have the same email once lower-cased (${normal}): change one of them, then start again.`,
          );
        }
        seen.set(normal, id);
        if (normal !== email) await db.updateTable('accounts').set({ email: normal }).where('id', '=', id).execute();
      }
      await db.schema
        .createIndex('accounts_email_lower')
        .on('accounts')
        .unique()
        .expression(sql`lower(email)`)
        .execute();
    },
  },
  {
    name: '0005_secrets',
    async up(db) {
      // One value per name and account; `<secret:name>` in a cmd names it. No id: the name is the handle.
      await db.schema
        .createTable('secrets')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('host_pattern', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('secrets_pkey', ['account_id', 'name'])
        .execute();
    },
  },
  {
    name: '0006_quotas',
    async up(db) {
      // A row only for an account an admin limited: no row is no limit.
      await db.schema
        .createTable('quotas')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('monthly_steps', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0007_step_history',
    async up(db) {
      // Written as each step ends; read by session for its timeline, pruned by age.
      await db.schema
        .createTable('step_history')
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('entry', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('step_history_pkey', ['session_id', 'step'])
        .execute();
      await db.schema.createIndex('step_history_at').on('step_history').column('at').execute();
    },
  },
  {
    name: '0008_guardrails',
    async up(db) {
      // Host patterns as JSON arrays; no row is no guardrail.
      await db.schema
        .createTable('guardrails')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('blocked_hosts', 'text', (c) => c.notNull())
        .addColumn('allowed_hosts', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0009_pairing_codes',
    async up(db) {
      await db.schema
        .createTable('pairing_codes')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0010_agent_settings',
    async up(db) {
      // Null: the call's value (or the relay's default) applies; skill_ids null: every matching skill.
      await db.schema.alterTable('agents').addColumn('temperature', 'real').execute();
      await db.schema.alterTable('agents').addColumn('max_steps', 'integer').execute();
      await db.schema.alterTable('agents').addColumn('skill_ids', 'text').execute();
    },
  },
  {
    name: '0011_console',
    async up(db) {
      // Roles: the oldest account (the one made at first start) administers; others are members.
      await db.schema
        .alterTable('accounts')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
        .execute();
      await db.schema
        .alterTable('accounts')
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const first: { id: string } | undefined = await db
        .selectFrom('accounts')
        .select('id')
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      if (first) await db.updateTable('accounts').set({ role: 'admin' }).where('id', '=', first.id).execute();

      // Console sign-ins: the cookie carries a random token, the table its hash.
      await db.schema
        .createTable('console_sessions')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('csrf', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_sessions_account').on('console_sessions').column('account_id').execute();

      // Skills can be disabled (kept, unused) and edited.
      await db.schema
        .alterTable('skills')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('skills').addColumn('updated_at', 'bigint').execute();
      await db
        .updateTable('skills')
        .set((eb) => ({ updated_at: eb.ref('created_at') }))
        .execute();

      // Usage per API key too (key_id '' for work no key asked for), and retrieve calls counted.
      await db.schema
        .createTable('usage_daily')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('steps', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('prompt_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('completion_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('cached_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('retrieve_calls', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_daily_pkey', ['account_id', 'day', 'key_id'])
        .execute();
      await db
        .insertInto('usage_daily')
        .columns(['account_id', 'key_id', 'day', 'steps', 'prompt_tokens', 'completion_tokens', 'cached_tokens'])
        .expression(
          db
            .selectFrom('usage')
            .select((eb) => [
              'account_id',
              eb.val('').as('key_id'),
              'day',
              'steps',
              'prompt_tokens',
              'completion_tokens',
              'cached_tokens',
            ]),
        )
        .execute();
      await db.schema.dropTable('usage').execute();

      // A record of every session (what the console lists after it ended or the relay restarted).
      await db.schema
        .createTable('session_records')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('node_id', 'text', (c) => c.notNull())
        .addColumn('local', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('steps', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text')
        .addColumn('last_step_at', 'bigint')
        .addColumn('screenshot', 'text')
        .addColumn('ended_at', 'bigint')
        .addColumn('end_reason', 'text')
        .execute();
      await db.schema
        .createIndex('session_records_account')
        .on('session_records')
        .columns(['account_id', 'last_used_at'])
        .execute();
    },
  },
  {
    name: '0012_parked_sessions',
    async up(db) {
      // A parked session's state (its page, cookies and storage, the agent's conversation) as JSON; null
      // while it is live. Any relay on the store can bring it back.
      await db.schema.alterTable('session_records').addColumn('parked', 'text').execute();
    },
  },
];
