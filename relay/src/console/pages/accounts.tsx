import type { AdminAccountInfo, Role } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { useSignedIn } from '../auth';
import { Badge } from '../components/badge';
import { ConfirmButton, Modal } from '../components/dialog';
import { Field, FormError, Select } from '../components/field';
import { Empty, Loaded, Page } from '../components/page';
import { ShownOnce } from '../components/shown-once';
import { count, dateTime } from '../time';
import { toast } from '../toasts';
import { useResource } from '../use-resource';
import { text, useSubmit } from '../use-submit';

/** A password the relay made (a new account, a reset), shown this once. */
interface MadePassword {
  email: string;
  password: string;
}

/** Admins only: every account of the relay, its role and monthly step quota. */
export function AccountsPage() {
  const accounts = useResource(() => api.accounts());
  const [made, setMade] = useState<MadePassword>();
  const create = useSubmit(async (fields, form) => {
    const role = text(fields, 'role') as Role;
    const answer = await api.createAccount({ email: text(fields, 'email'), role });
    form.reset();
    if (answer.password) setMade({ email: answer.account.email, password: answer.password });
    toast(`Account ${answer.account.email} made.`);
    await accounts.reload();
  });
  return (
    <Page title="Accounts" intro="Everyone who can sign in to this relay, their role and their monthly step quota.">
      {made && (
        <ShownOnce
          title={`Password for ${made.email}`}
          label="The made password"
          value={made.password}
          onDone={() => setMade(undefined)}
        >
          Give it to them; they choose their own at their first sign-in.
        </ShownOnce>
      )}
      <article>
        <h2>Make an account</h2>
        <form class="inline-form" onSubmit={create.onSubmit} noValidate>
          <Field
            label="Email"
            name="email"
            type="email"
            required
            autocomplete="off"
            placeholder="ada@example.com"
            error={create.error?.fields.email}
          />
          <Select label="Role" name="role" defaultValue="member" error={create.error?.fields.role}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </Select>
          <button type="submit" aria-busy={create.busy} disabled={create.busy}>
            Make account
          </button>
        </form>
        <FormError error={create.error} />
      </article>
      <Loaded resource={accounts}>
        {({ accounts: list }) =>
          list.length === 0 ? (
            <Empty title="No accounts" />
          ) : (
            <AccountTable list={list} onChange={accounts.reload} onPassword={setMade} />
          )
        }
      </Loaded>
    </Page>
  );
}

function AccountTable({
  list,
  onChange,
  onPassword,
}: {
  list: AdminAccountInfo[];
  onChange: () => Promise<void>;
  onPassword: (made: MadePassword) => void;
}) {
  const me = useSignedIn();
  const [editing, setEditing] = useState<AdminAccountInfo>();
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col" class="num">
              Steps this month
            </th>
            <th scope="col" class="num">
              Monthly quota
            </th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((account) => {
            const self = account.id === me?.account.id;
            return (
              <tr key={account.id}>
                <td>
                  {account.email} {self && <Badge tone="info">you</Badge>}
                  {account.must_change_password && (
                    <div class="sub muted" title={`Made ${dateTime(account.created_at)}`}>
                      has not chosen a password yet
                    </div>
                  )}
                </td>
                <td>
                  <Badge tone={account.role === 'admin' ? 'warn' : 'neutral'}>{account.role}</Badge>
                </td>
                <td class="num">{count(account.steps_this_month)}</td>
                <td class="num">
                  {account.monthly_step_quota === null ? (
                    <span class="muted">unlimited</span>
                  ) : (
                    count(account.monthly_step_quota)
                  )}
                </td>
                <td class="actions">
                  <button
                    type="button"
                    class="secondary outline small"
                    aria-label={`Change ${account.email}`}
                    onClick={() => setEditing(account)}
                  >
                    Change
                  </button>
                  <ConfirmButton
                    label={`Reset password of ${account.email}`}
                    title={`Reset the password of ${account.email}?`}
                    confirm="Reset password"
                    text="Reset password"
                    done="Password reset."
                    onConfirm={async () => {
                      const answer = await api.resetPassword(account.id);
                      onPassword({ email: answer.account.email, password: answer.password });
                      await onChange();
                    }}
                  >
                    <p>A new password is made and shown once; their console sign-ins end. API keys keep working.</p>
                  </ConfirmButton>
                  {!self && (
                    <ConfirmButton
                      label={`Delete the account ${account.email}`}
                      title={`Delete ${account.email}?`}
                      confirm="Delete"
                      done={`Account ${account.email} deleted.`}
                      onConfirm={async () => {
                        await api.deleteAccount(account.id);
                        await onChange();
                      }}
                    >
                      <p>
                        Its keys, skills, agents, secrets, devices and history are deleted, and its live sessions end.
                        This cannot be undone.
                      </p>
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <Modal
        open={editing !== undefined}
        title={`Change ${editing?.email ?? ''}`}
        onClose={() => setEditing(undefined)}
      >
        {editing && (
          <AccountForm
            account={editing}
            onSaved={async () => {
              setEditing(undefined);
              toast('Account changed.');
              await onChange();
            }}
          />
        )}
      </Modal>
    </div>
  );
}

function AccountForm({ account, onSaved }: { account: AdminAccountInfo; onSaved: () => Promise<void> }) {
  const save = useSubmit(async (fields) => {
    const quota = text(fields, 'monthly_step_quota');
    const steps = quota === '' ? null : Number(quota);
    if (steps !== null && !Number.isInteger(steps)) {
      throw new ApiError(0, 'The quota is a whole number of steps, or empty for unlimited.', {
        monthly_step_quota: 'A whole number, or empty.',
      });
    }
    await api.updateAccount(account.id, { role: text(fields, 'role') as Role, monthly_step_quota: steps });
    await onSaved();
  });
  const errors = save.error?.fields ?? {};
  return (
    <form onSubmit={save.onSubmit} noValidate>
      <Select label="Role" name="role" defaultValue={account.role} error={errors.role}>
        <option value="member">Member: its own things only</option>
        <option value="admin">Admin: also manages accounts and quotas</option>
      </Select>
      <Field
        label="Monthly step quota"
        name="monthly_step_quota"
        type="number"
        min="0"
        step="1"
        placeholder="unlimited"
        defaultValue={account.monthly_step_quota?.toString() ?? ''}
        error={errors.monthly_step_quota}
        hint="Agent steps per calendar month (UTC); empty for unlimited. Used up: browse, step and retrieve answer 402."
      />
      <FormError error={save.error} />
      <footer>
        <button type="submit" aria-busy={save.busy} disabled={save.busy}>
          Save
        </button>
      </footer>
    </form>
  );
}
