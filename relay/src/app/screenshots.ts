import type { Logger } from '../logger';
import type { Session } from '../sessions/session';
import { type ImageStore, ScreenshotNotStored } from '../store/image-store';

/** A screenshot URL for an answer that asked for one, or "" with a note for its message when none could be stored. */
export interface OptionalScreenshot {
  screenshot: string;
  /** "" when there is nothing to say; else a sentence (with a leading space) for the answer's message. */
  note: string;
}

export const NO_SCREENSHOT: OptionalScreenshot = { screenshot: '', note: '' };

export interface ScreenshotDeps {
  store: Pick<ImageStore, 'save'>;
  /** Base URL clients reach the relay at: screenshot URLs are absolute. */
  publicUrl(): string;
  logger: Logger;
}

/** Screenshots of sessions' pages, stored, and answered as capability URLs. */
export class Screenshots {
  constructor(private readonly deps: ScreenshotDeps) {}

  /** Takes a screenshot of the session's page, stores it, and returns its URL. */
  async capture(session: Session): Promise<string> {
    const png = await session.driver.screenshot();
    let file: string;
    try {
      file = await this.deps.store.save(png);
    } catch (error) {
      this.deps.logger.error({ err: error, sessionId: session.id }, 'screenshot not stored');
      throw error;
    }
    return `${this.deps.publicUrl()}/v1/web/screenshots/${file}`;
  }

  /**
   * The screenshot a step, browse, create or retrieve asked for. A store that refuses it (a full or
   * read-only disk, an object store that is down or refuses the relay's key) must not cost the client the work it asked for: the answer goes out without it and says why.
   */
  async optional(session: Session, wanted: boolean): Promise<OptionalScreenshot> {
    if (!wanted) return NO_SCREENSHOT;
    try {
      return { screenshot: await this.capture(session), note: '' };
    } catch (error) {
      if (!(error instanceof ScreenshotNotStored)) throw error;
      return {
        screenshot: '',
        note: ` No screenshot: it was taken but could not be stored: ${error.reason}. ${error.advice}.`,
      };
    }
  }
}
