import type { AgentMode } from '@tandem/shared';
import type { BrowserDriver, GoneReason } from '../browser/driver';
import { ParkingDriver } from '../browser/parking-driver';
import { SecretDriver } from '../browser/secret-driver';
import type { Guardrails } from '../store/guardrails';
import type { OperationCancelled } from './cancellation';
import { SerialQueue } from './queue';

export type EndReason = 'closed' | 'expired' | 'relay_stopped' | 'node_stopped' | GoneReason;

export interface SessionInfo {
  accountId: string;
  local: boolean;
  mode?: AgentMode | undefined;
  agentId?: string | undefined;
  useProxy: boolean;
  /** Which of TANDEM_PROXY_URLS it goes through (with useProxy), so it gets the same one when it comes back. */
  proxyIndex?: number | undefined;
  /** The account's guardrails when the session opened: they hold for its whole life. */
  guardrails?: Guardrails | undefined;
}

/**
 * A live session: its driver, its owner and its place in time. Manipulated only by SessionManager.
 * `C` is what the layer above keeps per session (the agent's conversation); the sessions layer only
 * holds it.
 */
export class Session<C = unknown> {
  lastUsedAt = Date.now();
  /** The session manager's clock timers (Clock.after handles). */
  idleTimer: unknown;
  /** Parks the session when it has been idle TANDEM_PARK_AFTER_SECONDS. */
  parkTimer: unknown;
  /** What the next step should say first (the session was revived), once. */
  notice: string | undefined;
  readonly queue: SerialQueue;
  /** Aborts the running operation (set while one runs). */
  operation: AbortController | undefined;
  /** The browser, through the layer that types secrets and masks them in everything read back. */
  readonly driver: SecretDriver;
  /** The parkable browser of a remote session; local sessions live in the user's browser and are never parked. */
  readonly parking: ParkingDriver | undefined;

  constructor(
    readonly id: string,
    readonly info: SessionInfo,
    driver: BrowserDriver,
    busyWaitMs: number,
    /** The agent's task, history and memory in this session. */
    readonly conversation: C,
    /** When it was made (earlier than now for a session brought back from the store). */
    readonly createdAt = Date.now(),
  ) {
    this.driver = new SecretDriver(driver);
    this.parking = driver instanceof ParkingDriver ? driver : undefined;
    this.queue = new SerialQueue(busyWaitMs);
  }

  get accountId(): string {
    return this.info.accountId;
  }

  /** Whether its browser context is closed until its next use. */
  get parked(): boolean {
    return this.parking?.parked ?? false;
  }

  /** The notice of a revive, for the step that follows it; once. */
  takeNotice(): string | undefined {
    const notice = this.notice ?? this.parking?.takeNotice();
    this.notice = undefined;
    this.parking?.takeNotice();
    return notice;
  }

  /** Stops the running operation at its next action boundary, aborting its model request. */
  cancel(why: OperationCancelled): void {
    this.operation?.abort(why);
  }
}
