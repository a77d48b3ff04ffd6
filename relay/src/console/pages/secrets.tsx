import type { SecretInfo } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ConfirmButton, Modal } from '../components/dialog';
import { Field, FormError } from '../components/field';
import { Empty, Loaded, Page } from '../components/page';
import { ago, dateTime } from '../time';
import { toast } from '../toasts';
import { useResource } from '../use-resource';
import { text, useSubmit } from '../use-submit';

/** Write-only values a cmd names as <secret:name>: the model sees only the placeholder. */
export function SecretsPage() {
  const secrets = useResource(() => api.secrets());
  return (
    <Page
      title="Secrets"
      intro={
        <>
          Passwords and tokens the agent may type without ever seeing them. Write <code>&lt;secret:name&gt;</code> in a{' '}
          <code>cmd</code>, e.g. <code>log in as ada with password &lt;secret:shop_password&gt;</code>: the model reads
          only the placeholder and the relay types the value, on the sites the secret allows.
        </>
      }
    >
      <article>
        <h2>Save a secret</h2>
        <SecretForm
          onSaved={async (saved) => {
            toast(`Secret "${saved.name}" saved. Its value is not shown again.`);
            await secrets.reload();
          }}
        />
      </article>
      <Loaded resource={secrets}>
        {({ secrets: list }) =>
          list.length === 0 ? (
            <Empty title="No secrets">
              <p>Saved values are never shown again, here or in the API: only their names and sites.</p>
            </Empty>
          ) : (
            <SecretTable list={list} onChange={secrets.reload} />
          )
        }
      </Loaded>
    </Page>
  );
}

function SecretForm({ name, onSaved }: { name?: string; onSaved: (saved: SecretInfo) => Promise<void> }) {
  const save = useSubmit(async (fields, form) => {
    const site = text(fields, 'host_pattern');
    const saved = await api.putSecret(name ?? text(fields, 'name'), {
      value: String(fields.get('value') ?? ''),
      host_pattern: site || null,
    });
    form.reset();
    await onSaved(saved);
  });
  const errors = save.error?.fields ?? {};
  return (
    <form onSubmit={save.onSubmit} noValidate>
      <div class="grid-3">
        {!name && (
          <Field
            label="Name"
            name="name"
            required
            placeholder="shop_password"
            spellcheck={false}
            autocapitalize="off"
            error={errors.name}
            hint="Letters, digits, _ . and -"
          />
        )}
        <Field
          label="Value"
          name="value"
          type="password"
          required
          autocomplete="new-password"
          error={errors.value}
          hint="Never shown again."
        />
        <Field
          label="Site"
          name="host_pattern"
          placeholder="any site"
          spellcheck={false}
          autocapitalize="off"
          error={errors.host_pattern}
          hint="Where it may be typed, e.g. shop.example; empty: any site."
        />
      </div>
      <FormError error={save.error} />
      <button type="submit" aria-busy={save.busy} disabled={save.busy}>
        {name ? 'Replace' : 'Save secret'}
      </button>
    </form>
  );
}

function SecretTable({ list, onChange }: { list: SecretInfo[]; onChange: () => Promise<void> }) {
  const [replacing, setReplacing] = useState<string>();
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">In a cmd</th>
            <th scope="col">Site</th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((secret) => (
            <tr key={secret.name}>
              <td>
                <code>&lt;secret:{secret.name}&gt;</code>
              </td>
              <td>{secret.host_pattern ?? <span class="muted">any site</span>}</td>
              <td title={dateTime(secret.updated_at)}>{ago(secret.updated_at)}</td>
              <td class="actions">
                <button
                  type="button"
                  class="secondary outline small"
                  aria-label={`Replace the secret ${secret.name}`}
                  onClick={() => setReplacing(secret.name)}
                >
                  Replace
                </button>
                <ConfirmButton
                  label={`Delete the secret ${secret.name}`}
                  title={`Delete "${secret.name}"?`}
                  confirm="Delete"
                  done={`Secret "${secret.name}" deleted.`}
                  onConfirm={async () => {
                    await api.deleteSecret(secret.name);
                    await onChange();
                  }}
                >
                  <p>
                    A <code>cmd</code> naming <code>&lt;secret:{secret.name}&gt;</code> is refused (400) from then on.
                  </p>
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Modal
        open={replacing !== undefined}
        title={`Replace "${replacing ?? ''}"`}
        onClose={() => setReplacing(undefined)}
      >
        {replacing && (
          <SecretForm
            name={replacing}
            onSaved={async () => {
              setReplacing(undefined);
              toast('Secret replaced.');
              await onChange();
            }}
          />
        )}
      </Modal>
    </div>
  );
}
