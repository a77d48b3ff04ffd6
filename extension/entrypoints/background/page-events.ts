import { DIALOG_EVENT, DIALOG_POLICY_EVENT, type DialogPolicy, PageEventWire } from '@tandem/shared';
import { browser } from 'wxt/browser';
import { sessionTabs } from '@/utils/storage';

/** The dialog shim (entrypoints/dialogs.ts), run in the page's own world. */
const SHIM_FILE = '/dialogs.js';
/** A page that reports more than this between two actions is not telling the agent anything useful. */
const MAX_EVENTS = 100;

const policies = new Map<number, DialogPolicy>();
/** Events of documents that went away (and tabs the page opened), per session tab, for the next action. */
const leftovers = new Map<number, unknown[]>();

/** URLs of session tabs being opened: the tab is created, and commits its first page, before it is recorded. */
const opening = new Set<string>();
/** Tabs created for a session being opened (in memory: only needed until the tab is recorded). */
const openedTabs = new Set<number>();

function normalize(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

export const isSessionTab = async (tabId: number) =>
  openedTabs.has(tabId) || (await sessionTabs.getValue()).some((t) => t.tabId === tabId);

/** Every tab a local session drives right now, including one still being opened. */
export async function sessionTabIds(): Promise<number[]> {
  return [...new Set([...openedTabs, ...(await sessionTabs.getValue()).map((t) => t.tabId)])];
}

/** Notes that a session tab is about to be opened at `url`; call the result once it is recorded. */
export function expectSessionTab(url: string): () => void {
  const key = normalize(url);
  opening.add(key);
  return () => opening.delete(key);
}

/**
 * The bridge in the extension's isolated world: keeps what the shim reports until an action reads it,
 * hands what is left to the background when the document goes away, and passes the policy on to the
 * shim. Serialized by chrome.scripting: it may use nothing from this module.
 */
function bridge(eventName: string, policyEventName: string, policyJson: string, max: number): void {
  const scope = globalThis as unknown as {
    __tandemEvents?: string[];
    chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } };
  };
  if (!scope.__tandemEvents) {
    const events: string[] = [];
    scope.__tandemEvents = events;
    document.addEventListener(eventName, (event) => {
      if (events.length < max) events.push(String((event as CustomEvent).detail));
    });
    addEventListener('pagehide', () => {
      const left = events.splice(0);
      if (left.length) scope.chrome.runtime.sendMessage({ tandemPageEvents: left }).catch(() => undefined);
    });
  }
  document.dispatchEvent(new CustomEvent(policyEventName, { detail: policyJson }));
}

/** Puts the shim and the bridge into the tab's documents (or the frames given); both install once. */
async function install(tabId: number, frameIds?: number[]): Promise<void> {
  const target = frameIds ? { tabId, frameIds } : { tabId, allFrames: true };
  const policy = JSON.stringify(policies.get(tabId) ?? { accept: false });
  await browser.scripting.executeScript({ target, world: 'MAIN', injectImmediately: true, files: [SHIM_FILE] });
  await browser.scripting.executeScript({
    target,
    injectImmediately: true,
    func: bridge,
    args: [DIALOG_EVENT, DIALOG_POLICY_EVENT, policy, MAX_EVENTS],
  });
}

/**
 * Sets how the tab's dialogs are answered and makes sure its documents have the shim (a document that
 * committed before the tab was known as a session tab, or before the service worker woke, has none).
 */
export async function applyDialogPolicy(tabId: number, policy: DialogPolicy | undefined): Promise<void> {
  if (policy) policies.set(tabId, policy);
  await install(tabId).catch(() => undefined);
}

/** What the page did since the last call: the documents' reports and what was left by earlier ones. */
export async function drainPageEvents(tabId: number): Promise<PageEventWire[]> {
  const raw: unknown[] = leftovers.get(tabId)?.splice(0) ?? [];
  const results = await browser.scripting
    .executeScript({
      target: { tabId, allFrames: true },
      func: () => {
        const scope = globalThis as unknown as { __tandemEvents?: string[] };
        return scope.__tandemEvents?.splice(0) ?? [];
      },
    })
    .catch(() => []);
  for (const result of results) raw.push(...((result.result as string[] | undefined) ?? []).map(safeJson));
  // What does not parse is no report of the shim's (the page can dispatch the event too).
  return raw
    .flatMap((event) => {
      const parsed = PageEventWire.safeParse(event);
      return parsed.success ? [parsed.data] : [];
    })
    .slice(0, MAX_EVENTS);
}

/** Queues events for the tab's next action (what its documents could not report themselves). */
export function keep(tabId: number, events: unknown[]): void {
  const list = leftovers.get(tabId) ?? [];
  list.push(...events.slice(0, MAX_EVENTS - list.length));
  leftovers.set(tabId, list);
}

/** Listeners go on synchronously at start, so the events that woke the worker are delivered. */
export function watchPageEvents(): void {
  // Each new document of a session tab gets the shim as it commits, before most of its scripts run.
  browser.webNavigation.onCommitted.addListener(async (details) => {
    if (!(await isSessionTab(details.tabId))) return;
    await install(details.tabId, [details.frameId]).catch(() => undefined);
  });
  browser.runtime.onMessage.addListener((message: unknown, sender) => {
    const tabId = sender.tab?.id;
    const events = (message as { tandemPageEvents?: unknown })?.tandemPageEvents;
    if (tabId === undefined || !Array.isArray(events)) return undefined;
    void isSessionTab(tabId).then((known) => {
      if (known)
        keep(
          tabId,
          events.map((text) => (typeof text === 'string' ? safeJson(text) : undefined)),
        );
    });
    return undefined;
  });
  browser.tabs.onCreated.addListener((tab) => {
    const url = tab.pendingUrl || tab.url;
    if (tab.id !== undefined && url && opening.has(normalize(url))) openedTabs.add(tab.id);
  });
  // A local session owns one tab: a tab its page opens is the user's, and the agent hears of it. This
  // event, not a tab's openerTabId, says a page opened it: Chrome also names the active tab the opener
  // of a tab the user (or a test) opens beside it.
  browser.webNavigation.onCreatedNavigationTarget.addListener(async (details) => {
    if (openedTabs.has(details.tabId) || !(await isSessionTab(details.sourceTabId))) return;
    keep(details.sourceTabId, [{ kind: 'popup', url: details.url.slice(0, 4000) }]);
  });
  browser.tabs.onRemoved.addListener((tabId) => {
    openedTabs.delete(tabId);
    policies.delete(tabId);
    leftovers.delete(tabId);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
