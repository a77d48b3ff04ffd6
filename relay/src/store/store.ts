import { Accounts } from './accounts';
import { ApiKeys } from './api-keys';
import { type Db, openDatabase } from './database';

/** The relay's persistent state. One in-process implementation; the seam for Postgres later (DESIGN §9). */
export class Store {
  readonly accounts: Accounts;
  readonly apiKeys: ApiKeys;

  private constructor(private readonly db: Db) {
    this.accounts = new Accounts(db);
    this.apiKeys = new ApiKeys(db);
  }

  static open(dataDir: string): Store {
    return new Store(openDatabase(dataDir));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
