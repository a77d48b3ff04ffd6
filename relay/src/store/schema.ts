import type { AgentMode } from '@tandem/shared';

/**
 * The tables as the query builder sees them, after every migration. Column types are chosen so SQLite
 * and Postgres read back the same JavaScript values:
 * - timestamps: epoch milliseconds in `bigint` (a number here; the Postgres pool parses int8 as a number);
 * - counters: `bigint`;
 * - booleans: `integer` 0/1 (SQLite has no boolean and better-sqlite3 cannot bind true/false);
 * - structured values: JSON in `text`, (de)serialized by the repository;
 * - ids: text made by the relay (`acc_…`), never database-generated, so inserts need no RETURNING;
 * - emails: stored trimmed and lower-cased, unique on `lower(email)` (COLLATE NOCASE is SQLite only).
 */
export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
  role: 'admin' | 'member';
  /** 1: the password was made for the account (first start, an admin) and must be changed first. */
  must_change_password: number;
}

export interface ConsoleSessionsTable {
  /** SHA-256 of the cookie's token. */
  hash: string;
  account_id: string;
  /** The token every change made with this sign-in must carry (X-CSRF-Token). */
  csrf: string;
  created_at: number;
  expires_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface SkillsTable {
  id: string;
  account_id: string;
  host_pattern: string;
  rule: string;
  created_at: number;
  /** 1: the agent reads it; 0: kept, unused. */
  enabled: number;
  updated_at: number | null;
}

export interface AgentsTable {
  id: string;
  account_id: string;
  name: string;
  instructions: string;
  default_mode: AgentMode | null;
  created_at: number;
  /** The sampling temperature of its calls that give none. */
  temperature: number | null;
  /** The most steps a browse with it runs. */
  max_steps: number | null;
  /** JSON array of the skill ids that apply to it; null: every skill of the account that matches. */
  skill_ids: string | null;
}

export interface UsageDailyTable {
  account_id: string;
  /** The API key the work was asked for with; '' for none. */
  key_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  steps: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  retrieve_calls: number;
}

export interface SessionRecordsTable {
  id: string;
  account_id: string;
  /** The relay (TANDEM_NODE_ID) that opened it. */
  node_id: string;
  local: number;
  created_at: number;
  last_used_at: number;
  /** Its current (or last) page; '' before one opened. */
  url: string;
  steps: number;
  /** Its latest step's status (CONTINUE, ASK_USER, DONE, FAILED). */
  status: string | null;
  last_step_at: number | null;
  /** Its latest step's screenshot URL. */
  screenshot: string | null;
  ended_at: number | null;
  end_reason: string | null;
  /** While parked: what brings it back (JSON), for any relay on the store; null while live. */
  parked: string | null;
}

export interface DevicesTable {
  id: string;
  account_id: string;
  name: string;
  hash: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

export interface SecretsTable {
  account_id: string;
  name: string;
  value: string;
  /** Where the value may be typed (a skill-style host pattern); null: on any site. */
  host_pattern: string | null;
  created_at: number;
  updated_at: number;
}

export interface QuotasTable {
  account_id: string;
  /** Agent steps the account may run per calendar month (UTC). */
  monthly_steps: number;
  updated_at: number;
}

export interface StepHistoryTable {
  session_id: string;
  step: number;
  account_id: string;
  /** When the step started (ms since the epoch). */
  at: number;
  /** The StepHistoryEntry as JSON. */
  entry: string;
}

export interface GuardrailsTable {
  account_id: string;
  /** JSON array of host patterns never opened. */
  blocked_hosts: string;
  /** JSON array of host patterns; when not empty, the only hosts opened. */
  allowed_hosts: string;
  updated_at: number;
}

export interface PairingCodesTable {
  /** SHA-256 of the code without its dash. */
  hash: string;
  account_id: string;
  expires_at: number;
  created_at: number;
}

export interface Schema {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  skills: SkillsTable;
  agents: AgentsTable;
  usage_daily: UsageDailyTable;
  console_sessions: ConsoleSessionsTable;
  session_records: SessionRecordsTable;
  devices: DevicesTable;
  secrets: SecretsTable;
  quotas: QuotasTable;
  step_history: StepHistoryTable;
  guardrails: GuardrailsTable;
  pairing_codes: PairingCodesTable;
}
