import type { Db } from './database';
import { hashPassword, randomBase62, verifyPassword } from './secrets';

export interface Account {
  id: string;
  email: string;
  createdAt: number;
}

interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

const toAccount = (row: AccountRow): Account => ({ id: row.id, email: row.email, createdAt: row.created_at });

export class Accounts {
  constructor(private readonly db: Db) {}

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
  }

  async create(email: string, password: string): Promise<Account> {
    const row: AccountRow = {
      id: `acc_${randomBase62(96)}`,
      email,
      password_hash: await hashPassword(password),
      created_at: Date.now(),
    };
    this.db
      .prepare(
        'INSERT INTO accounts (id, email, password_hash, created_at) VALUES (@id, @email, @password_hash, @created_at)',
      )
      .run(row);
    return toAccount(row);
  }

  get(id: string): Account | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row && toAccount(row);
  }

  first(): Account | undefined {
    const row = this.db.prepare('SELECT * FROM accounts ORDER BY created_at LIMIT 1').get() as AccountRow | undefined;
    return row && toAccount(row);
  }

  /** The account when the email and password match, else undefined (never says which was wrong). */
  async authenticate(email: string, password: string): Promise<Account | undefined> {
    const row = this.db.prepare('SELECT * FROM accounts WHERE email = ?').get(email) as AccountRow | undefined;
    if (!row) return undefined;
    return (await verifyPassword(password, row.password_hash)) ? toAccount(row) : undefined;
  }
}
