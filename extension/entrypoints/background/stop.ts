import { browser } from 'wxt/browser';
import { sessionTabs } from '@/utils/storage';

/** What the popup sends to stop one session, or every session of this browser. */
export interface StopRequest {
  tandemStop: { sessionId: string } | { all: true };
}

/** Sessions the user stopped from the popup: their tab's removal is reported as a stop, not a close. */
const stopping = new Set<string>();

/** Whether the session's tab went because the user pressed Stop (asked once, when the tab is gone). */
export function wasStopped(sessionId: string): boolean {
  return stopping.delete(sessionId);
}

/** Closes the tabs of the sessions asked for; answers how many were stopped. */
async function stop(request: StopRequest['tandemStop']): Promise<number> {
  const tabs = (await sessionTabs.getValue()).filter((t) => 'all' in request || t.sessionId === request.sessionId);
  for (const tab of tabs) stopping.add(tab.sessionId);
  const closed = await Promise.all(
    tabs.map((tab) =>
      browser.tabs.remove(tab.tabId).then(
        () => true,
        () => !stopping.delete(tab.sessionId), // already gone: reported as closed by then
      ),
    ),
  );
  return closed.filter(Boolean).length;
}

/** Listeners go on synchronously at start, so the message that woke the worker is delivered. */
export function watchStopRequests(): void {
  const popup = browser.runtime.getURL('/popup.html');
  browser.runtime.onMessage.addListener((message: unknown, sender) => {
    const request = (message as Partial<StopRequest> | null)?.tandemStop;
    // Only the extension's own popup may stop sessions; content scripts of the pages cannot.
    if (!request || !sender.url?.startsWith(popup)) return undefined;
    return stop(request);
  });
}
