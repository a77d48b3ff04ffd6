import { Accounts } from './accounts';
import { Agents } from './agents';
import { ApiKeys } from './api-keys';
import { type Db, openDatabase } from './database';
import { Devices } from './devices';
import { Skills } from './skills';
import { UsageLedger } from './usage';

/** The relay's persistent state. One in-process implementation; the seam for Postgres later (DESIGN §9). */
export class Store {
  readonly accounts: Accounts;
  readonly apiKeys: ApiKeys;
  readonly skills: Skills;
  readonly agents: Agents;
  readonly usage: UsageLedger;
  readonly devices: Devices;

  private constructor(private readonly db: Db) {
    this.accounts = new Accounts(db);
    this.apiKeys = new ApiKeys(db);
    this.skills = new Skills(db);
    this.agents = new Agents(db);
    this.usage = new UsageLedger(db);
    this.devices = new Devices(db);
  }

  static open(dataDir: string): Store {
    return new Store(openDatabase(dataDir));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
