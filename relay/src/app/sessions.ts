import type {
  CreateSessionRequest,
  CreateSessionResponse,
  ListSessionsResponse,
  ScreenshotResponse,
} from '@tandem/shared';
import type { AgentSession, Conversation } from '../agent/conversation';
import { statusNote } from '../browser/http-status';
import type { Cluster } from '../cluster/cluster';
import { Elsewhere, SessionGone } from '../errors';
import type { Clock } from '../sessions/clock';
import { adoptSession, type OpenDeps, openSession } from '../sessions/lifecycle';
import type { SessionManager } from '../sessions/manager';
import type { Guardrails } from '../store/guardrails';
import type { SessionRecord } from '../store/session-records';
import type { ParkedSessionStore } from './parked-sessions';
import { type ProfileStore, resolveProfile } from './profiles';
import type { Screenshots } from './screenshots';

type OpenRequest = Omit<Parameters<typeof openSession>[2], 'guardrails'>;

const GONE_REASONS = new Set<SessionGone['reason']>([
  'closed',
  'expired',
  'closed_in_browser',
  'stopped_in_browser',
  'browser_crashed',
  'extension_disconnected',
  'device_revoked',
  'relay_stopped',
  'node_stopped',
]);

/** Why a session ended, as its record says, in the words SessionGone knows. */
const goneReason = (reason: string | null): SessionGone['reason'] =>
  GONE_REASONS.has(reason as SessionGone['reason']) ? (reason as SessionGone['reason']) : 'unknown';

export interface OpenerDeps extends OpenDeps<Conversation> {
  profiles: ProfileStore;
  guardrails: { get(accountId: string): Promise<Guardrails> };
  /** Parked sessions kept in the store (by this relay or another). */
  parked: Pick<ParkedSessionStore, 'load'>;
  /** The store's session records: why a session ended, and the account's sessions on every relay. */
  records: {
    get(accountId: string, id: string): Promise<SessionRecord | undefined>;
    active(accountId: string, idleSince: number): Promise<string[]>;
    ended(id: string, reason: string): Promise<void>;
  };
  /** The other relays: who holds a live session, where an account's extension is connected. */
  cluster: Pick<Cluster, 'self' | 'holderOf' | 'claim' | 'alive' | 'devicesElsewhere'>;
  /** TANDEM_SESSION_IDLE_SECONDS. */
  idleMs: number;
  /** The session manager's clock: a parked session's idle time is read on it. */
  clock: Pick<Clock, 'now'>;
}

/**
 * Opens sessions for the use cases and finds them again: the agent profile a session names must exist
 * first, the account's guardrails go with the session, and a parked session comes back from the store.
 */
export class SessionOpener {
  constructor(private readonly deps: OpenerDeps) {}

  get sessions(): SessionManager<Conversation> {
    return this.deps.sessions;
  }

  /**
   * The caller's session `id`: live here, or parked in the store (it joins this relay, its browser opened
   * again by its next operation). Elsewhere when another running relay holds it live (the request is
   * passed on to it). Else SessionGone, saying why it ended when the store knows.
   */
  async session(accountId: string, id: string): Promise<AgentSession> {
    try {
      return this.deps.sessions.get(accountId, id);
    } catch (error) {
      if (!(error instanceof SessionGone) || error.reason !== 'unknown') throw error;
      const { cluster } = this.deps;
      const holder = await cluster.holderOf(id);
      if (holder) throw new Elsewhere(holder, `Session ${id}`, { accountId, id });
      const parked = await this.deps.parked.load(accountId, id);
      if (parked) {
        // Two relays reaching for it at once: one takes it, the other passes the request on.
        if (!(await cluster.claim(id, this.deps.idleMs))) {
          const taker = await cluster.holderOf(id);
          if (taker) throw new Elsewhere(taker, `Session ${id}`, { accountId, id });
        }
        return adoptSession(this.deps, parked);
      }
      const record = await this.deps.records.get(accountId, id);
      if (record && record.endedAt === null) {
        // Live on a relay that stopped: its browser went with it.
        if (record.nodeId !== cluster.self.id && !(await cluster.alive(record.nodeId))) {
          await this.deps.records.ended(id, 'node_stopped');
          throw new SessionGone(id, 'node_stopped');
        }
        // It ended here a moment ago (or came back here meanwhile): ask the directory again.
        return this.deps.sessions.get(accountId, id);
      }
      if (record) throw new SessionGone(id, goneReason(record.endReason));
      throw error;
    }
  }

  /** The ids of the caller's sessions that have not ended, on this relay and (with a shared store) others. */
  async active(accountId: string): Promise<string[]> {
    const here = this.deps.sessions.list(accountId);
    const stored = await this.deps.records.active(accountId, this.deps.clock.now() - this.deps.idleMs);
    // A session that just ended here may not be marked so in the store yet.
    const elsewhere = stored.filter((id) => !here.includes(id) && !this.deps.sessions.endReason(accountId, id));
    return [...here, ...elsewhere];
  }

  async open(accountId: string, request: OpenRequest): Promise<AgentSession> {
    await resolveProfile(this.deps.profiles, accountId, request.agent_id);
    if (request.local && !this.deps.gateway.readyDevice(accountId)) {
      // The account's extension may be connected to another relay: the request goes there.
      const remote = (await this.deps.cluster.devicesElsewhere(accountId)).find((d) => d.apiEnabled);
      if (remote) throw new Elsewhere(remote.node, "This account's browser extension");
    }
    const guardrails = await this.deps.guardrails.get(accountId);
    return openSession(this.deps, accountId, { ...request, guardrails });
  }

  /**
   * Runs `work` on a session `open` just made; a failure closes it again, since the client never heard
   * its id and it would only wait for its idle expiry.
   */
  async closingOnFailure<T>(accountId: string, session: AgentSession, work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      await this.deps.sessions.close(accountId, session.id).catch(() => undefined);
      throw error;
    }
  }
}

/** Manual control of sessions: create, close, list, screenshot. */
export class SessionService {
  constructor(
    private readonly opener: SessionOpener,
    private readonly screenshots: Screenshots,
  ) {}

  private get sessions(): SessionManager<Conversation> {
    return this.opener.sessions;
  }

  async create(
    accountId: string,
    request: CreateSessionRequest,
    onSession?: (sessionId: string) => void,
  ): Promise<CreateSessionResponse> {
    const session = await this.opener.open(accountId, request);
    onSession?.(session.id);
    const work = this.sessions.run(session, async (): Promise<CreateSessionResponse> => {
      const { driver } = session;
      const title = await driver.title();
      const shot = await this.screenshots.optional(session, request.include_screenshot);
      return {
        status: 'CONTINUE',
        message: `Session created; opened ${title ? `"${title}"` : driver.url()}.${statusNote(driver.httpStatus())}${shot.note}`,
        session_id: session.id,
        url: driver.url(),
        screenshot: shot.screenshot,
      };
    });
    return this.opener.closingOnFailure(accountId, session, work);
  }

  /** The caller's session, brought back from the store when parked there (for tools and tests). */
  find(accountId: string, sessionId: string): Promise<AgentSession> {
    return this.opener.session(accountId, sessionId);
  }

  async close(accountId: string, sessionId: string): Promise<void> {
    const session = await this.opener.session(accountId, sessionId);
    await this.sessions.close(accountId, session.id);
  }

  async list(accountId: string): Promise<ListSessionsResponse> {
    return { session_ids: await this.opener.active(accountId) };
  }

  async screenshot(accountId: string, sessionId: string): Promise<ScreenshotResponse> {
    const session = await this.opener.session(accountId, sessionId);
    return { screenshot: await this.sessions.run(session, () => this.screenshots.capture(session)) };
  }
}
