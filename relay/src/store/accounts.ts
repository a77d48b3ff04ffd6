import { sql } from 'kysely';
import { creationTime } from './clock';
import type { Db } from './database';
import type { AccountsTable } from './schema';
import { hashPassword, randomBase62, verifyPassword } from './secrets';

export type Role = AccountsTable['role'];

export interface Account {
  id: string;
  email: string;
  createdAt: number;
  role: Role;
  /** The password was made for the account (first start, an admin): it must be changed before anything else. */
  mustChangePassword: boolean;
}

const toAccount = (row: AccountsTable): Account => ({
  id: row.id,
  email: row.email,
  createdAt: row.created_at,
  role: row.role,
  mustChangePassword: Number(row.must_change_password) === 1,
});

/** Emails are compared case-insensitively: they are stored, and looked up, trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A hash of nothing anyone knows, checked when an email is unknown so both answers take as long. */
let decoy: Promise<string> | undefined;

export interface NewAccount {
  role?: Role;
  /** True for a password made for the account rather than chosen by its owner. */
  mustChangePassword?: boolean;
}

export class Accounts {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(email: string, password: string, options: NewAccount = {}): Promise<Account> {
    const row: AccountsTable = {
      id: `acc_${randomBase62(96)}`,
      email: normalizeEmail(email),
      password_hash: await hashPassword(password),
      created_at: creationTime(),
      role: options.role ?? 'member',
      must_change_password: options.mustChangePassword ? 1 : 0,
    };
    await this.db.insertInto('accounts').values(row).execute();
    return toAccount(row);
  }

  async get(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccount(row);
  }

  /** Every account, oldest first. */
  async list(): Promise<Account[]> {
    const rows = await this.db.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    return rows.map(toAccount);
  }

  async first(): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().orderBy('created_at').limit(1).executeTakeFirst();
    return row && toAccount(row);
  }

  async byEmail(email: string): Promise<Account | undefined> {
    const row = await this.rowByEmail(email);
    return row && toAccount(row);
  }

  /** The account when the email and password match, else undefined (never says which was wrong). */
  async authenticate(email: string, password: string): Promise<Account | undefined> {
    const row = await this.rowByEmail(email);
    if (!row) {
      decoy ??= hashPassword(randomBase62(96));
      await verifyPassword(password, await decoy);
      return undefined;
    }
    return (await verifyPassword(password, row.password_hash)) ? toAccount(row) : undefined;
  }

  /** Whether `password` is the account's. */
  async checkPassword(id: string, password: string): Promise<boolean> {
    const row = await this.db.selectFrom('accounts').select('password_hash').where('id', '=', id).executeTakeFirst();
    return row ? verifyPassword(password, row.password_hash) : false;
  }

  /** Sets a new password; `mustChange` when it was made for the account rather than by its owner. */
  async setPassword(id: string, password: string, mustChange: boolean): Promise<Account | undefined> {
    await this.db
      .updateTable('accounts')
      .set({ password_hash: await hashPassword(password), must_change_password: mustChange ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  async setRole(id: string, role: Role): Promise<Account | undefined> {
    await this.db.updateTable('accounts').set({ role }).where('id', '=', id).execute();
    return this.get(id);
  }

  async countAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Deletes the account and, by cascade, everything it owns. */
  async remove(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('accounts').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private rowByEmail(email: string) {
    return (
      this.db
        .selectFrom('accounts')
        .selectAll()
        // The expression the unique index is on, so both backends look the email up by that index.
        .where(sql<string>`lower(email)`, '=', normalizeEmail(email))
        .executeTakeFirst()
    );
  }
}
