import { api } from '../api';
import { signedIn } from '../auth';
import { AuthCard } from '../components/auth-card';
import { Field, FormError } from '../components/field';
import { Link } from '../router';
import { useResource } from '../use-resource';
import { text, useSubmit } from '../use-submit';

export function SignInPage() {
  const options = useResource(() => api.authOptions());
  const submission = useSubmit(async (fields) => {
    const password = String(fields.get('password') ?? '');
    const answer = await api.signIn({ email: text(fields, 'email'), password });
    signedIn(answer.account, answer.csrf_token, password, options.data?.signup_allowed);
  });
  const { fields } = submission.error ?? { fields: {} as Record<string, string> };
  return (
    <AuthCard title="Sign in" intro="Sessions, keys, skills and usage of your Tandem relay.">
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
          autocomplete="current-password"
          required
          error={fields.password}
        />
        <FormError error={submission.error} />
        <button type="submit" aria-busy={submission.busy} disabled={submission.busy}>
          Sign in
        </button>
      </form>
      <p class="auth-foot">
        First start? Use the email and password the relay printed; you then choose your own password.
      </p>
      {options.data?.signup_allowed && (
        <p class="auth-foot">
          No account yet? <Link href="/console/sign-up">Make one</Link>
        </p>
      )}
    </AuthCard>
  );
}
