import type { AccountInfo } from '@tandem/shared';
import { rememberedPassword, signOut } from '../auth';
import { AuthCard } from '../components/auth-card';
import { PasswordForm } from '../components/password-form';
import { toast } from '../toasts';

/** Where an account whose password was made for it (first start, an admin, a reset) must go first. */
export function ChoosePasswordPage({ account }: { account: AccountInfo }) {
  return (
    <AuthCard
      title="Choose your password"
      intro={
        <>
          The password of <strong>{account.email}</strong> was made for it. Choose your own to open the console.
        </>
      }
    >
      <PasswordForm
        current={rememberedPassword()}
        submitLabel="Save and open the console"
        onChanged={() => toast('Password saved. Welcome to the console.')}
      />
      <p class="auth-foot">
        Not you?{' '}
        <button type="button" class="link-button" onClick={() => void signOut()}>
          Sign out
        </button>
      </p>
    </AuthCard>
  );
}
