import { sql } from 'kysely';
import { creationTime } from './clock';
import type { Db } from './database';
import type { AccountsTable } from './schema';
import { hashPassword, randomBase62, verifyPassword } from './secrets';

export interface Account {
  id: string;
  email: string;
  createdAt: number;
}

const toAccount = (row: AccountsTable): Account => ({ id: row.id, email: row.email, createdAt: row.created_at });

/** Emails are compared case-insensitively: they are stored, and looked up, trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export class Accounts {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(email: string, password: string): Promise<Account> {
    const row: AccountsTable = {
      id: `acc_${randomBase62(96)}`,
      email: normalizeEmail(email),
      password_hash: await hashPassword(password),
      created_at: creationTime(),
    };
    await this.db.insertInto('accounts').values(row).execute();
    return toAccount(row);
  }

  async get(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccount(row);
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
    if (!row) return undefined;
    return (await verifyPassword(password, row.password_hash)) ? toAccount(row) : undefined;
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
