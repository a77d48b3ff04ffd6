import type { AccountInfo } from '@tandem/shared';
import { ApiError, api } from '../api';
import { accountChanged } from '../auth';
import { useSubmit } from '../use-submit';
import { Field, FormError } from './field';

/** Current password, a new one twice: used by "choose your password" and the account page. */
export function PasswordForm({
  current,
  submitLabel,
  onChanged,
}: {
  /** The current password when the page already knows it (just typed to sign in): not asked again. */
  current?: string;
  submitLabel: string;
  onChanged?: (account: AccountInfo) => void;
}) {
  const submission = useSubmit(async (fields, form) => {
    const password = String(fields.get('new_password') ?? '');
    if (password !== fields.get('repeat')) {
      throw new ApiError(0, 'The two new passwords differ: type the same one twice.', {
        repeat: 'Not the same password.',
      });
    }
    const answer = await api.changePassword({
      current_password: current || String(fields.get('current_password') ?? ''),
      new_password: password,
    });
    form.reset();
    accountChanged(answer.account);
    onChanged?.(answer.account);
  });
  const fields = submission.error?.fields ?? {};
  return (
    <form onSubmit={submission.onSubmit} noValidate>
      {!current && (
        <Field
          label="Current password"
          name="current_password"
          type="password"
          autocomplete="current-password"
          required
          error={fields.current_password}
        />
      )}
      <Field
        label="New password"
        name="new_password"
        type="password"
        autocomplete="new-password"
        required
        error={fields.new_password}
        hint="At least 10 characters; a few words you remember work well."
      />
      <Field
        label="New password again"
        name="repeat"
        type="password"
        autocomplete="new-password"
        required
        error={fields.repeat}
      />
      <FormError error={submission.error} />
      <button type="submit" aria-busy={submission.busy} disabled={submission.busy}>
        {submitLabel}
      </button>
    </form>
  );
}
