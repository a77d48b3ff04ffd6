import type { RetrieveRequest, RetrieveResponse } from '@tandem/shared';
import type { Config } from '../config';
import type { NetworkGuard } from '../network/network-guard';
import { type RetrieveDeps, runRetrieve } from '../retrieve/index';
import type { UsageDelta } from '../store/usage';
import type { CallOptions } from './browse';
import { checkPreparation } from './preparation';
import type { QuotaGate } from './quota';
import type { Screenshots } from './screenshots';
import type { SessionOpener } from './sessions';

export interface RetrieveServiceDeps {
  opener: SessionOpener;
  /** Settings and the model client extraction uses. */
  extraction: RetrieveDeps;
  /** Where retrieve's calls and model tokens are counted (the store's usage ledger), per API key. */
  usage: { record(accountId: string, delta: UsageDelta, now?: Date, keyId?: string): Promise<void> };
  screenshots: Screenshots;
  guard: NetworkGuard;
  quota: QuotaGate;
  config: Pick<Config, 'TANDEM_START_URL'>;
}

/** Retrieve: structured extraction from a new session's page, or inside an existing session. */
export class RetrieveService {
  constructor(private readonly deps: RetrieveServiceDeps) {}

  async retrieve(accountId: string, request: RetrieveRequest, options: CallOptions = {}): Promise<RetrieveResponse> {
    const { deps } = this;
    const { opener } = deps;
    if (request.session_id) options.onSession?.(request.session_id);
    await deps.quota.check(accountId);
    const continuing = request.session_id !== undefined;
    const existing = continuing ? await opener.session(accountId, request.session_id as string) : undefined;
    const session =
      existing ??
      (await opener.open(accountId, {
        url: request.url ?? deps.config.TANDEM_START_URL,
        local: request.local,
        use_proxy: false,
      }));
    options.onSession?.(session.id);

    const work = opener.sessions.run(session, async (signal): Promise<RetrieveResponse> => {
      if (continuing) await (await checkPreparation(deps.guard, session, { url: request.url }))();
      const { usage, ...result } = await runRetrieve(deps.extraction, session, request, signal);
      // Retrieve's model tokens count like a step's, without being a step.
      session.conversation.addUsage(usage);
      await deps.usage.record(accountId, { steps: 0, ...usage, retrieveCalls: 1 }, new Date(), options.keyId);
      const shot = await deps.screenshots.optional(session, request.include_screenshot);
      return {
        ...result,
        message: `${result.message}${shot.note}`,
        url: session.driver.url(),
        session_id: session.id,
        ...(request.include_screenshot ? { screenshot: shot.screenshot } : {}),
      };
    });
    if (continuing) return work;
    const answer = await opener.closingOnFailure(accountId, session, work);
    // A session retrieve made is parked as the call returns: a client reading 100 pages in a row
    // holds 100 sessions it may never use again, and a parked one costs no browser memory.
    void opener.sessions.park(session);
    return answer;
  }
}
