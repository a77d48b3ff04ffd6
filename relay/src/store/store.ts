import type { Logger } from '../logger';
import { AccountSecrets } from './account-secrets';
import { Accounts } from './accounts';
import { Agents } from './agents';
import { ApiKeys } from './api-keys';
import { ConsoleSessions } from './console-sessions';
import { type Backend, type Database, type Db, openDatabase, type StoreLocation } from './database';
import { Devices } from './devices';
import { GuardrailStore } from './guardrails';
import { PairingCodes } from './pairing-codes';
import { Quotas } from './quotas';
import { SessionRecords } from './session-records';
import { Skills } from './skills';
import { StepHistory } from './step-history';
import { UsageLedger } from './usage';

/** Every repository, over the database or over one transaction. */
export class Repositories {
  readonly accounts: Accounts;
  readonly apiKeys: ApiKeys;
  readonly skills: Skills;
  readonly agents: Agents;
  readonly usage: UsageLedger;
  readonly devices: Devices;
  readonly secrets: AccountSecrets;
  readonly quotas: Quotas;
  readonly history: StepHistory;
  readonly guardrails: GuardrailStore;
  readonly pairingCodes: PairingCodes;
  readonly consoleSessions: ConsoleSessions;
  readonly sessionRecords: SessionRecords;

  constructor(db: Db) {
    this.accounts = new Accounts(db);
    this.apiKeys = new ApiKeys(db);
    this.skills = new Skills(db);
    this.agents = new Agents(db);
    this.usage = new UsageLedger(db);
    this.devices = new Devices(db);
    this.secrets = new AccountSecrets(db);
    this.quotas = new Quotas(db);
    this.history = new StepHistory(db);
    this.guardrails = new GuardrailStore(db);
    this.pairingCodes = new PairingCodes(db);
    this.consoleSessions = new ConsoleSessions(db);
    this.sessionRecords = new SessionRecords(db);
  }
}

/**
 * The relay's persistent state: SQLite (`tandem.db` in the data dir) by default, Postgres with
 * TANDEM_DATABASE_URL (DESIGN §9). One schema and one set of migrations for both.
 */
export class Store extends Repositories {
  private closing: Promise<void> | undefined;

  private constructor(private readonly database: Database) {
    super(database.db);
  }

  static async open(location: StoreLocation, logger?: Logger): Promise<Store> {
    return new Store(await openDatabase(location, logger));
  }

  get backend(): Backend {
    return this.database.backend;
  }

  /**
   * Runs `work` in one transaction: all of it is committed or none. With `lock`, transactions naming the
   * same lock run one after another, on every relay sharing the database. Inside, use only the
   * repositories `work` is given: on SQLite the store's one connection is busy with the transaction, so a
   * call through the store itself would wait for it forever.
   */
  transaction<T>(work: (tx: Repositories) => Promise<T>, options: { lock?: string } = {}): Promise<T> {
    return this.database.db.transaction().execute(async (trx) => {
      if (options.lock) await this.database.lock(trx, options.lock);
      return work(new Repositories(trx));
    });
  }

  close(): Promise<void> {
    this.closing ??= this.database.close();
    return this.closing;
  }
}
