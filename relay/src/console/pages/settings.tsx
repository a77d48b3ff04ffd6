import { signOut, useSignedIn } from '../auth';
import { Page } from '../components/page';
import { PasswordForm } from '../components/password-form';
import { dateTime } from '../time';
import { toast } from '../toasts';

export function SettingsPage() {
  const state = useSignedIn();
  if (!state) return null;
  const { account } = state;
  return (
    <Page title="Your account" intro="Who you are signed in as, and your password.">
      <div class="grid-2">
        <article>
          <h2>Account</h2>
          <dl class="facts">
            <dt>Email</dt>
            <dd>{account.email}</dd>
            <dt>Role</dt>
            <dd>{account.role === 'admin' ? 'Admin: manages accounts and quotas' : 'Member'}</dd>
            <dt>Since</dt>
            <dd>{dateTime(account.created_at)}</dd>
          </dl>
          <button type="button" class="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </article>
        <article>
          <h2>Change password</h2>
          <p class="muted">Your other console sign-ins end; API keys and devices keep working.</p>
          <PasswordForm submitLabel="Change password" onChanged={() => toast('Password changed.')} />
        </article>
      </div>
    </Page>
  );
}
