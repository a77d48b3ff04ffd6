import { z } from 'zod';

// Accounts, sign-in and roles of the developer console (/v1/console/auth, /me, /accounts).

const When = z.string().describe('ISO 8601, UTC.');

/** The shortest password accepted: long enough that the sign-in limit makes guessing hopeless. */
export const MIN_PASSWORD_CHARS = 10;
/** scrypt reads all of it: a megabyte "password" would be an attack, not a secret. */
export const MAX_PASSWORD_CHARS = 200;

export const Role = z
  .enum(['admin', 'member'])
  .describe('admin: manages accounts and quotas besides its own things; member: its own things only.')
  .meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, 'an email address (name@host)')
  .describe('The email the account signs in with (compared without case).');

// writeOnly: never echoed back, not even by a 422 (the relay's validation reads this mark).
export const NewPassword = z
  .string()
  .min(MIN_PASSWORD_CHARS)
  .max(MAX_PASSWORD_CHARS)
  .meta({ writeOnly: true })
  .describe(`A new password, ${MIN_PASSWORD_CHARS} to ${MAX_PASSWORD_CHARS} characters.`);

/** A password being checked: any length up to the cap, so an old short one can still be changed. */
const Password = z.string().min(1).max(MAX_PASSWORD_CHARS).meta({ writeOnly: true }).describe('The password.');

export const AccountInfo = z
  .object({
    id: z.string(),
    email: z.string(),
    role: Role,
    must_change_password: z
      .boolean()
      .describe('The password was made for the account (first start, or by an admin): change it before going on.'),
    created_at: When,
  })
  .meta({ id: 'AccountInfo' });
export type AccountInfo = z.infer<typeof AccountInfo>;

export const SignInRequest = z.object({ email: Email, password: Password }).meta({ id: 'SignInRequest' });
export type SignInRequest = z.infer<typeof SignInRequest>;

export const SignUpRequest = z.object({ email: Email, password: NewPassword }).meta({ id: 'SignUpRequest' });
export type SignUpRequest = z.infer<typeof SignUpRequest>;

export const ConsoleSignIn = z
  .object({
    account: AccountInfo,
    csrf_token: z
      .string()
      .describe('Send it as the X-CSRF-Token header with every change made with the console cookie.'),
  })
  .describe('Signed in: the console cookie is set (HttpOnly, SameSite=Lax).')
  .meta({ id: 'ConsoleSignIn' });
export type ConsoleSignIn = z.infer<typeof ConsoleSignIn>;

export const MeResponse = z
  .object({
    account: AccountInfo,
    via: z.enum(['cookie', 'api_key']).describe('How this request was authenticated.'),
    csrf_token: z.string().optional().describe('With the console cookie: the token changes must carry.'),
    signup_allowed: z.boolean().describe('Whether anyone may make an account (TANDEM_ALLOW_SIGNUP).'),
  })
  .meta({ id: 'MeResponse' });
export type MeResponse = z.infer<typeof MeResponse>;

export const AuthOptions = z
  .object({ signup_allowed: z.boolean().describe('Whether the sign-in page offers to make an account.') })
  .meta({ id: 'AuthOptions' });
export type AuthOptions = z.infer<typeof AuthOptions>;

export const SignedOut = z.object({ signed_out: z.literal(true) }).meta({ id: 'SignedOut' });
export type SignedOut = z.infer<typeof SignedOut>;

export const ChangePasswordRequest = z
  .object({ current_password: Password, new_password: NewPassword })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

export const PasswordChanged = z
  .object({ changed: z.literal(true), account: AccountInfo })
  .describe("Changed; the account's other console sign-ins are ended.")
  .meta({ id: 'PasswordChanged' });
export type PasswordChanged = z.infer<typeof PasswordChanged>;

export const MonthlySteps = z
  .int()
  .min(0)
  .max(1_000_000_000)
  .nullable()
  .describe('Agent steps the account may run per calendar month (UTC); null: unlimited.');

export const AdminAccountInfo = AccountInfo.extend({
  monthly_step_quota: MonthlySteps,
  steps_this_month: z.int().min(0),
}).meta({ id: 'AdminAccountInfo' });
export type AdminAccountInfo = z.infer<typeof AdminAccountInfo>;

export const AccountsResponse = z.object({ accounts: z.array(AdminAccountInfo) }).meta({ id: 'AccountsResponse' });
export type AccountsResponse = z.infer<typeof AccountsResponse>;

export const CreateAccountRequest = z
  .object({
    email: Email,
    role: Role.default('member'),
    password: NewPassword.optional().describe(
      'Its first password; none: one is made and shown once. Either way it must be changed at the first sign-in.',
    ),
  })
  .meta({ id: 'CreateAccountRequest' });
export type CreateAccountRequest = z.infer<typeof CreateAccountRequest>;

export const CreatedAccount = z
  .object({
    account: AdminAccountInfo,
    password: z.string().optional().describe('The password made for it, shown this once (when none was given).'),
  })
  .meta({ id: 'CreatedAccount' });
export type CreatedAccount = z.infer<typeof CreatedAccount>;

export const UpdateAccountRequest = z
  .object({
    role: Role.optional(),
    monthly_step_quota: MonthlySteps.optional(),
  })
  .meta({ id: 'UpdateAccountRequest' });
export type UpdateAccountRequest = z.infer<typeof UpdateAccountRequest>;

export const PasswordReset = z
  .object({
    account: AdminAccountInfo,
    password: z.string().describe('A new password, shown this once; it must be changed at the next sign-in.'),
  })
  .meta({ id: 'PasswordReset' });
export type PasswordReset = z.infer<typeof PasswordReset>;
