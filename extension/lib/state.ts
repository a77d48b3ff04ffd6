// Shapes of the state in storage.session (kept outside utils/, which WXT scans for auto-imports).

/** What the popup shows about the relay socket; written by the background worker only. */
export interface ConnectionInfo {
  status: 'signed_out' | 'api_off' | 'connecting' | 'connected' | 'error';
  /** Why it is not connected (close reason, network error), for the popup. */
  detail: string;
  accountEmail: string;
}

/** The tabs this browser runs for relay sessions: survives a service worker restart (storage.session). */
export interface SessionTabInfo {
  sessionId: string;
  tabId: number;
  url: string;
  /** The page's title, for the popup (absent until the tab reports one). */
  title?: string;
}
