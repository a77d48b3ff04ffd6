import { ApiError, api } from '../api';
import { signedIn } from '../auth';
import { AuthCard } from '../components/auth-card';
import { Field, FormError } from '../components/field';
import { Link } from '../router';
import { text, useSubmit } from '../use-submit';

export function SignUpPage() {
  const submission = useSubmit(async (fields) => {
    const password = String(fields.get('password') ?? '');
    if (password !== fields.get('repeat')) {
      throw new ApiError(0, 'The two passwords differ: type the same one twice.', { repeat: 'Not the same password.' });
    }
    const answer = await api.signUp({ email: text(fields, 'email'), password });
    signedIn(answer.account, answer.csrf_token, password, true);
  });
  const fields = submission.error?.fields ?? {};
  return (
    <AuthCard title="Make an account" intro="A member account: your own keys, sessions, skills and secrets.">
      <form onSubmit={submission.onSubmit} noValidate>
        <Field
          label="Email"
          name="email"
          type="email"
          autocomplete="username"
          required
          autoFocus
          error={fields.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          error={fields.password}
          hint="At least 10 characters; a few words you remember work well."
        />
        <Field
          label="Password again"
          name="repeat"
          type="password"
          autocomplete="new-password"
          required
          error={fields.repeat}
        />
        <FormError error={submission.error} />
        <button type="submit" aria-busy={submission.busy} disabled={submission.busy}>
          Make the account
        </button>
      </form>
      <p class="auth-foot">
        Have one? <Link href="/console/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}
