import type { ApiKeyInfo, CreatedApiKey } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ConfirmButton } from '../components/dialog';
import { Field, FormError } from '../components/field';
import { Empty, Loaded, Page } from '../components/page';
import { ShownOnce } from '../components/shown-once';
import { ago, dateTime } from '../time';
import { toast } from '../toasts';
import { useResource } from '../use-resource';
import { text, useSubmit } from '../use-submit';

export function ApiKeysPage() {
  const keys = useResource(() => api.apiKeys());
  const [created, setCreated] = useState<CreatedApiKey>();
  const submission = useSubmit(async (fields, form) => {
    const key = await api.createApiKey(text(fields, 'name'));
    form.reset();
    setCreated(key);
    toast(`Key "${key.name}" created.`);
    await keys.reload();
  });
  return (
    <Page
      title="API keys"
      intro={
        <>
          Scripts call the API with a key, in the <code>X_SERVICE_API_KEY</code> header or as{' '}
          <code>Authorization: Bearer &lt;key&gt;</code>. Make one per script, so each can be revoked alone.
        </>
      }
    >
      {created && (
        <ShownOnce
          title={`Your new key "${created.name}"`}
          label="The new API key"
          value={created.key}
          onDone={() => setCreated(undefined)}
        >
          Tandem keeps only a hash of it.
        </ShownOnce>
      )}
      <article>
        <h2>Create a key</h2>
        <form class="inline-form" onSubmit={submission.onSubmit} noValidate>
          <Field
            label="Name"
            name="name"
            required
            placeholder="nightly export"
            error={submission.error?.fields.name}
            hint="What the key is for, shown in the list."
          />
          <button type="submit" aria-busy={submission.busy} disabled={submission.busy}>
            Create key
          </button>
        </form>
        <FormError error={submission.error} />
      </article>
      <Loaded resource={keys}>
        {({ api_keys }) =>
          api_keys.length === 0 ? (
            <Empty title="No keys">
              <p>Create one above; the key is shown once, then only its first characters.</p>
            </Empty>
          ) : (
            <KeyTable keys={api_keys} onRevoked={keys.reload} />
          )
        }
      </Loaded>
    </Page>
  );
}

function KeyTable({ keys, onRevoked }: { keys: ApiKeyInfo[]; onRevoked: () => Promise<void> }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td title={dateTime(key.created_at)}>{ago(key.created_at)}</td>
              <td title={key.last_used_at ? dateTime(key.last_used_at) : undefined}>
                {key.last_used_at ? ago(key.last_used_at) : <span class="muted">never</span>}
              </td>
              <td class="actions">
                <ConfirmButton
                  label={`Revoke the key ${key.name}`}
                  title={`Revoke "${key.name}"?`}
                  confirm="Revoke"
                  done={`Key "${key.name}" revoked.`}
                  onConfirm={async () => {
                    await api.revokeApiKey(key.id);
                    await onRevoked();
                  }}
                >
                  <p>
                    The next call made with <code>{key.prefix}…</code> is refused (401). This cannot be undone.
                  </p>
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
