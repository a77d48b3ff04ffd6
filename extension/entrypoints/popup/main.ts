import { apiEnabled, relayUrl } from '@/utils/storage';

// The popup only reflects and edits storage for now. The status line stays "Not connected" until the
// background worker owns the relay socket (local-mode issue); then it shows the live socket state,
// and sign-in / sign-out join the form.

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`popup.html lacks #${id}`);
  return el as T;
}

async function main(): Promise<void> {
  const urlText = byId<HTMLElement>('relay-url');
  const toggle = byId<HTMLInputElement>('api-enabled');

  urlText.textContent = await relayUrl.getValue();
  relayUrl.watch((url) => {
    urlText.textContent = url;
  });

  toggle.checked = await apiEnabled.getValue();
  apiEnabled.watch((enabled) => {
    toggle.checked = enabled;
  });
  toggle.addEventListener('change', () => {
    void apiEnabled.setValue(toggle.checked);
  });
  // Enabled only now, so a click can never race the initial read from storage.
  toggle.disabled = false;
}

void main();
