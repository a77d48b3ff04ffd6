import { DeviceTokenResponse } from '@tandem/shared';
import { browser } from 'wxt/browser';
import {
  apiEnabled,
  type ConnectionInfo,
  connection,
  deviceId,
  deviceToken,
  relayUrl,
  type SessionTabInfo,
  sessionTabs,
  trustedInput,
} from '@/utils/storage';
import type { StopRequest } from '../background/stop';

// The popup reflects storage (what the background worker publishes about the socket) and edits the
// settings; the worker reacts to the changes. Signing in is an HTTP call to the relay from here.

const STATUS_TEXT: Record<ConnectionInfo['status'], string> = {
  signed_out: 'Not connected',
  // Signed in and connected; the relay just may not use the browser (the detail line says so).
  api_off: 'Connected',
  connecting: 'Connecting…',
  connected: 'Connected',
  error: 'Not connected',
};

/** The host a session tab shows, for people ("" for about:blank and the like). */
function siteOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`popup.html lacks #${id}`);
  return el as T;
}

/** Asks the relay for a device token with email + password, or with an API key. */
async function requestToken(
  base: string,
  form: { email: string; password: string; pairingCode: string; apiKey: string },
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const body: Record<string, string> = {
    name: `${navigator.userAgent.includes('Edg/') ? 'Edge' : 'Chrome'} extension`,
  };
  if (form.apiKey) headers.Authorization = `Bearer ${form.apiKey}`;
  else if (form.pairingCode) body.pairing_code = form.pairingCode;
  else Object.assign(body, { email: form.email, password: form.password });
  let endpoint: URL;
  try {
    endpoint = new URL('/v1/extension/token', base);
  } catch {
    throw new Error(`"${base}" is not a URL: enter the relay's address, such as http://127.0.0.1:8787.`);
  }
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) }).catch(() => {
    // fetch says only "Failed to fetch": what the user can check is whether the relay runs there.
    throw new Error(
      `cannot reach the relay at ${endpoint.origin}: is it running? (Start it with npm start, or correct the URL.)`,
    );
  });
  const json: unknown = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((json as { message?: string }).message ?? `The relay answered ${res.status}.`);
  return DeviceTokenResponse.parse(json);
}

async function main(): Promise<void> {
  const status = byId<HTMLElement>('status');
  const detail = byId<HTMLElement>('detail');
  const urlText = byId<HTMLElement>('relay-url');
  const account = byId<HTMLElement>('account');
  const accountLabel = byId<HTMLElement>('account-label');
  const toggle = byId<HTMLInputElement>('api-enabled');
  const form = byId<HTMLFormElement>('sign-in');
  const signedIn = byId<HTMLElement>('signed-in');
  const sessions = byId<HTMLUListElement>('sessions');
  const error = byId<HTMLElement>('sign-in-error');

  const showConnection = (info: ConnectionInfo) => {
    status.textContent = STATUS_TEXT[info.status];
    status.dataset.state = info.status;
    detail.textContent = info.detail;
    account.textContent = info.accountEmail;
    account.hidden = accountLabel.hidden = !info.accountEmail;
  };
  const showSignedIn = (token: string | null) => {
    form.hidden = token !== null;
    signedIn.hidden = token === null;
  };
  const stopAll = byId<HTMLButtonElement>('stop-all');
  const stopError = byId<HTMLElement>('stop-error');
  const requestStop = async (request: StopRequest['tandemStop']) => {
    stopError.textContent = '';
    try {
      await browser.runtime.sendMessage({ tandemStop: request } satisfies StopRequest);
    } catch (failure) {
      stopError.textContent = `Could not stop: ${failure instanceof Error ? failure.message : String(failure)}`;
    }
  };
  stopAll.addEventListener('click', () => void requestStop({ all: true }));
  const showSessions = (tabs: SessionTabInfo[]) => {
    stopAll.hidden = tabs.length < 2;
    sessions.replaceChildren(
      ...(tabs.length
        ? tabs.map((t) => {
            const site = siteOf(t.url);
            const li = document.createElement('li');
            li.className = 'session';
            const text = document.createElement('div');
            text.className = 'session-text';
            const title = document.createElement('span');
            title.className = 'session-title';
            title.textContent = t.title || site || 'New tab';
            const where = document.createElement('span');
            where.className = 'session-site';
            where.textContent = `${site || t.url || 'about:blank'} · ${t.sessionId.slice(-6)}`;
            text.append(title, where);
            const stop = document.createElement('button');
            stop.type = 'button';
            stop.className = 'danger';
            stop.textContent = 'Stop';
            stop.setAttribute('aria-label', `Stop the session on ${title.textContent}`);
            stop.addEventListener('click', () => void requestStop({ sessionId: t.sessionId }));
            li.append(text, stop);
            return li;
          })
        : [Object.assign(document.createElement('li'), { className: 'none', textContent: 'None running' })]),
    );
  };

  const url = await relayUrl.getValue();
  urlText.textContent = url;
  byId<HTMLInputElement>('relay-input').value = url;
  relayUrl.watch((next) => {
    urlText.textContent = next;
  });
  showConnection(await connection.getValue());
  connection.watch(showConnection);
  showSignedIn(await deviceToken.getValue());
  deviceToken.watch(showSignedIn);
  showSessions(await sessionTabs.getValue());
  sessionTabs.watch(showSessions);

  toggle.checked = await apiEnabled.getValue();
  apiEnabled.watch((enabled) => {
    toggle.checked = enabled;
  });
  toggle.addEventListener('change', () => {
    void apiEnabled.setValue(toggle.checked);
  });
  // Enabled only now, so a click can never race the initial read from storage.
  toggle.disabled = false;

  const trusted = byId<HTMLInputElement>('trusted-input');
  trusted.checked = await trustedInput.getValue();
  trustedInput.watch((on) => {
    trusted.checked = on;
  });
  trusted.addEventListener('change', () => {
    void trustedInput.setValue(trusted.checked);
  });
  trusted.disabled = false;

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const data = new FormData(form);
    const base = String(data.get('relayUrl') ?? '').trim();
    const fields = {
      email: String(data.get('email') ?? '').trim(),
      password: String(data.get('password') ?? ''),
      pairingCode: String(data.get('pairingCode') ?? '').trim(),
      apiKey: String(data.get('apiKey') ?? '').trim(),
    };
    if (!fields.apiKey && !fields.pairingCode && (!fields.email || !fields.password)) {
      error.textContent = 'Enter your email and password, a pairing code, or paste an API key.';
      return;
    }
    try {
      const issued = await requestToken(base, fields);
      await relayUrl.setValue(base);
      await deviceId.setValue(issued.device_id);
      await deviceToken.setValue(issued.token);
      form.reset();
      byId<HTMLInputElement>('relay-input').value = base;
    } catch (failure) {
      error.textContent = `Sign-in failed: ${failure instanceof Error ? failure.message : String(failure)}`;
    }
  });

  byId<HTMLButtonElement>('sign-out').addEventListener('click', async () => {
    const token = await deviceToken.getValue();
    await deviceToken.setValue(null);
    await deviceId.setValue(null);
    // Revoke it on the relay too; signing out works even when the relay is unreachable.
    if (token) {
      await fetch(new URL('/v1/extension/token', await relayUrl.getValue()), {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    }
  });
}

void main();
