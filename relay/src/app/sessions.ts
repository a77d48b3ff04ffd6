import type {
  CreateSessionRequest,
  CreateSessionResponse,
  ListSessionsResponse,
  ScreenshotResponse,
} from '@tandem/shared';
import type { AgentSession, Conversation } from '../agent/conversation';
import { statusNote } from '../browser/http-status';
import { type OpenDeps, openSession } from '../sessions/lifecycle';
import type { SessionManager } from '../sessions/manager';
import type { Guardrails } from '../store/guardrails';
import { type ProfileStore, resolveProfile } from './profiles';
import type { Screenshots } from './screenshots';

type OpenRequest = Omit<Parameters<typeof openSession>[2], 'guardrails'>;

/**
 * Opens sessions for the use cases: the agent profile a session names must exist first, and the
 * account's guardrails go with the session.
 */
export class SessionOpener {
  constructor(
    private readonly deps: OpenDeps<Conversation> & {
      profiles: ProfileStore;
      guardrails: { get(accountId: string): Promise<Guardrails> };
    },
  ) {}

  get sessions(): SessionManager<Conversation> {
    return this.deps.sessions;
  }

  async open(accountId: string, request: OpenRequest): Promise<AgentSession> {
    await resolveProfile(this.deps.profiles, accountId, request.agent_id);
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

  async close(accountId: string, sessionId: string): Promise<void> {
    await this.sessions.close(accountId, sessionId);
  }

  list(accountId: string): ListSessionsResponse {
    return { session_ids: this.sessions.list(accountId) };
  }

  async screenshot(accountId: string, sessionId: string): Promise<ScreenshotResponse> {
    const session = this.sessions.get(accountId, sessionId);
    return { screenshot: await this.sessions.run(session, () => this.screenshots.capture(session)) };
  }
}
