import type { DeviceInfo, PairingCode } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Badge } from '../components/badge';
import { ConfirmButton } from '../components/dialog';
import { FormError } from '../components/field';
import { Empty, Loaded, Page } from '../components/page';
import { ago, dateTime } from '../time';
import { useResource, useVisiblePolling } from '../use-resource';
import { useSubmit } from '../use-submit';

const REFRESH_MS = 5000;

/** Browsers signed in with the Tandem extension, for local mode (`local: true`). */
export function DevicesPage() {
  const devices = useResource(() => api.devices());
  useVisiblePolling(() => void devices.reload(), REFRESH_MS);
  return (
    <Page
      title="Devices"
      intro={
        <>
          Your own browsers, signed in with the Tandem extension. With API Enabled on, calls with{' '}
          <code>"local": true</code> run in a new tab there.
        </>
      }
    >
      <Pairing />
      <Loaded resource={devices}>
        {({ devices: list }) =>
          list.length === 0 ? (
            <Empty title="No devices">
              <p>Install the extension, then sign it in with a pairing code from above or your email and password.</p>
            </Empty>
          ) : (
            <DeviceTable list={list} onChange={devices.reload} />
          )
        }
      </Loaded>
    </Page>
  );
}

function Pairing() {
  const [code, setCode] = useState<PairingCode>();
  const make = useSubmit(async () => undefined);
  return (
    <article class="pairing">
      <div>
        <h2>Pair a browser</h2>
        <p class="muted">
          A one-time code the extension's popup takes instead of a password: good once, for 10 minutes.
        </p>
      </div>
      {code ? (
        <div class="pairing-code">
          <output aria-label="Pairing code">{code.code}</output>
          <span class="muted">
            Type it into the popup's <strong>Pairing code</strong> field. Expires{' '}
            <time dateTime={code.expires_at}>{ago(code.expires_at)}</time> ({dateTime(code.expires_at)}).
          </span>
        </div>
      ) : null}
      <FormError error={make.error} />
      <button
        type="button"
        class={code ? 'secondary' : ''}
        aria-busy={make.busy}
        disabled={make.busy}
        onClick={() => void make.run(async () => setCode(await api.pairingCode()))}
      >
        {code ? 'Make another code' : 'Pair a browser'}
      </button>
    </article>
  );
}

function DeviceTable({ list, onChange }: { list: DeviceInfo[]; onChange: () => Promise<void> }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Connection</th>
            <th scope="col">API Enabled</th>
            <th scope="col">Last seen</th>
            <th scope="col">Signed in</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((device) => (
            <tr key={device.id}>
              <td>
                {device.name}
                <div class="sub muted">
                  <code>{device.id}</code>
                </div>
              </td>
              <td>{device.connected ? <Badge tone="ok">connected</Badge> : <Badge>offline</Badge>}</td>
              <td>{device.api_enabled ? <Badge tone="ok">on</Badge> : <Badge tone="warn">off</Badge>}</td>
              <td title={device.last_seen_at ? dateTime(device.last_seen_at) : undefined}>
                {device.last_seen_at ? ago(device.last_seen_at) : <span class="muted">never</span>}
              </td>
              <td title={dateTime(device.created_at)}>{ago(device.created_at)}</td>
              <td class="actions">
                <ConfirmButton
                  label={`Revoke the device ${device.name}`}
                  title={`Revoke "${device.name}"?`}
                  confirm="Revoke"
                  done="Device revoked."
                  onConfirm={async () => {
                    await api.revokeDevice(device.id);
                    await onChange();
                  }}
                >
                  <p>Its extension is signed out at once and its local sessions end.</p>
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
