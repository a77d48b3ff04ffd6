import type {
  AccountInfo,
  AccountsResponse,
  AdminAccountInfo,
  AuthOptions,
  ConsoleSignIn,
  CreateAccountRequest,
  CreatedAccount,
  MeResponse,
  PasswordChanged,
  PasswordReset,
  Removed,
  SignedOut,
  UpdateAccountRequest,
} from '@tandem/shared';
import { BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unauthorized } from '../errors';
import type { SignInAttempt, SignInGuard } from '../limits/sign-in-guard';
import { clip } from '../quote';
import type { Account, NewAccount, Role } from '../store/accounts';
import type { ConsoleSession } from '../store/console-sessions';
import { randomBase62 } from '../store/secrets';
import { dayOf, monthStart } from '../store/usage';

/** Who a request acts as: an account, by an API key or by a console sign-in (cookie). */
export interface Principal {
  accountId: string;
  role: Role;
  mustChangePassword: boolean;
  via: 'api_key' | 'cookie';
  /** The API key of the request (via api_key). */
  keyId?: string | undefined;
  /** The console sign-in of the request (via cookie). */
  console?: ConsoleSession | undefined;
}

export interface AccountDeps {
  accounts: {
    create(email: string, password: string, options?: NewAccount): Promise<Account>;
    get(id: string): Promise<Account | undefined>;
    list(): Promise<Account[]>;
    byEmail(email: string): Promise<Account | undefined>;
    authenticate(email: string, password: string): Promise<Account | undefined>;
    checkPassword(id: string, password: string): Promise<boolean>;
    setPassword(id: string, password: string, mustChange: boolean): Promise<Account | undefined>;
    setRole(id: string, role: Role): Promise<Account | undefined>;
    countAdmins(): Promise<number>;
    remove(id: string): Promise<boolean>;
  };
  consoleSessions: {
    create(accountId: string): Promise<{ token: string; session: ConsoleSession }>;
    remove(id: string): Promise<void>;
    removeForAccount(accountId: string, keep?: string): Promise<void>;
  };
  quotas: {
    monthlySteps(accountId: string): Promise<number | null>;
    setMonthlySteps(accountId: string, steps: number | null): Promise<void>;
  };
  usage: {
    stepsThisMonth(accountId: string): Promise<number>;
    stepsSinceByAccount(firstDay: string): Promise<Map<string, number>>;
  };
  signIns: SignInGuard;
  /** TANDEM_ALLOW_SIGNUP. */
  allowSignup: boolean;
  /** Ends a deleted account's live sessions and closes its devices' sockets. */
  forget(accountId: string): Promise<void>;
}

/** A console sign-in: the cookie's token (for the HTTP layer to set) and the answer. */
export interface SignedIn {
  token: string;
  answer: ConsoleSignIn;
}

const TOO_MANY = (seconds: number) =>
  `Too many failed sign-ins for this account or from this address. Try again in ${seconds} s.`;

export const accountInfo = (account: Account): AccountInfo => ({
  id: account.id,
  email: account.email,
  role: account.role,
  must_change_password: account.mustChangePassword,
  created_at: new Date(account.createdAt).toISOString(),
});

const noAccount = (id: string) =>
  new NotFound(`There is no account ${clip(id, 60)} (it may have been deleted). List them to see the ids.`);

/** A password made for an account: shown once, changed at its first sign-in. */
const madePassword = () => randomBase62(96);

/** Signing in and out of the console, the account's own password, and (for admins) every account. */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  options(): AuthOptions {
    return { signup_allowed: this.deps.allowSignup };
  }

  /** Checks the password (limited per account and address) and opens a console sign-in. */
  async signIn(email: string, password: string, address: string): Promise<SignedIn> {
    const attempt: SignInAttempt = { account: email, address };
    await this.guard(attempt);
    const account = await this.deps.accounts.authenticate(email, password);
    if (!account) {
      await this.deps.signIns.failed(attempt);
      throw new Unauthorized('Wrong email or password.');
    }
    await this.deps.signIns.succeeded(attempt);
    return this.openConsole(account);
  }

  /** Makes a member account and signs it in, when TANDEM_ALLOW_SIGNUP allows it. */
  async signUp(email: string, password: string, address: string): Promise<SignedIn> {
    if (!this.deps.allowSignup) {
      throw new Forbidden(
        'Sign-up is off on this relay: ask an admin to make you an account (or to start the relay with TANDEM_ALLOW_SIGNUP=true).',
      );
    }
    // Counted like failures, so sign-up cannot be used to find out which emails have accounts, fast.
    const attempt: SignInAttempt = { address };
    await this.guard(attempt);
    await this.deps.signIns.failed(attempt);
    const account = await this.createUnique(email, password, { role: 'member' });
    return this.openConsole(account);
  }

  async signOut(principal: Principal): Promise<SignedOut> {
    if (principal.console) await this.deps.consoleSessions.remove(principal.console.id);
    return { signed_out: true };
  }

  async me(principal: Principal): Promise<MeResponse> {
    const account = await this.account(principal.accountId);
    return {
      account: accountInfo(account),
      via: principal.via,
      ...(principal.console ? { csrf_token: principal.console.csrf } : {}),
      signup_allowed: this.deps.allowSignup,
    };
  }

  /** A wrong current password counts as a failed sign-in (a stolen cookie must not guess it freely). */
  async changePassword(principal: Principal, current: string, next: string, address: string): Promise<PasswordChanged> {
    const account = await this.account(principal.accountId);
    const attempt: SignInAttempt = { account: account.email, address };
    await this.guard(attempt);
    if (!(await this.deps.accounts.checkPassword(account.id, current))) {
      await this.deps.signIns.failed(attempt);
      throw new BadRequest('The current password is wrong.');
    }
    if (current === next) throw new BadRequest('The new password is the current one: choose another.');
    const changed = await this.deps.accounts.setPassword(account.id, next, false);
    await this.deps.consoleSessions.removeForAccount(account.id, principal.console?.id);
    return { changed: true, account: accountInfo(changed ?? account) };
  }

  async list(): Promise<AccountsResponse> {
    const [accounts, used] = await Promise.all([
      this.deps.accounts.list(),
      this.deps.usage.stepsSinceByAccount(dayOf(monthStart(new Date()))),
    ]);
    return {
      accounts: await Promise.all(
        accounts.map(async (account) => ({
          ...accountInfo(account),
          monthly_step_quota: await this.deps.quotas.monthlySteps(account.id),
          steps_this_month: used.get(account.id) ?? 0,
        })),
      ),
    };
  }

  async create(request: CreateAccountRequest): Promise<CreatedAccount> {
    const password = request.password ?? madePassword();
    const account = await this.createUnique(request.email, password, {
      role: request.role,
      mustChangePassword: true,
    });
    return { account: await this.adminInfo(account), ...(request.password ? {} : { password }) };
  }

  async update(principal: Principal, id: string, request: UpdateAccountRequest): Promise<AdminAccountInfo> {
    let account = await this.account(id);
    if (request.role !== undefined && request.role !== account.role) {
      if (account.role === 'admin' && (await this.deps.accounts.countAdmins()) <= 1) {
        throw new BadRequest(`${account.email} is the last admin: make another account an admin first.`);
      }
      account = (await this.deps.accounts.setRole(id, request.role)) ?? account;
      // A demoted admin's own console sign-ins carry the old role until they end: end them now.
      if (request.role === 'member' && id !== principal.accountId) await this.deps.consoleSessions.removeForAccount(id);
    }
    if (request.monthly_step_quota !== undefined)
      await this.deps.quotas.setMonthlySteps(id, request.monthly_step_quota);
    return this.adminInfo(account);
  }

  async remove(principal: Principal, id: string): Promise<Removed> {
    const account = await this.account(id);
    if (id === principal.accountId) {
      throw new BadRequest('This is your own account: another admin has to delete it.');
    }
    if (account.role === 'admin' && (await this.deps.accounts.countAdmins()) <= 1) {
      throw new BadRequest(`${account.email} is the last admin: make another account an admin first.`);
    }
    await this.deps.forget(id);
    if (!(await this.deps.accounts.remove(id))) throw noAccount(id);
    return { id, removed: true };
  }

  async resetPassword(id: string): Promise<PasswordReset> {
    await this.account(id);
    const password = madePassword();
    const account = await this.deps.accounts.setPassword(id, password, true);
    if (!account) throw noAccount(id);
    await this.deps.consoleSessions.removeForAccount(id);
    return { account: await this.adminInfo(account), password };
  }

  private async openConsole(account: Account): Promise<SignedIn> {
    const { token, session } = await this.deps.consoleSessions.create(account.id);
    return { token, answer: { account: accountInfo(account), csrf_token: session.csrf } };
  }

  private async createUnique(email: string, password: string, options: NewAccount): Promise<Account> {
    if (await this.deps.accounts.byEmail(email)) {
      throw new Conflict(`There is already an account for ${clip(email, 100)}: sign in with it instead.`);
    }
    try {
      return await this.deps.accounts.create(email, password, options);
    } catch (error) {
      // Two requests for one email at once: the unique index lets one through.
      if (await this.deps.accounts.byEmail(email)) {
        throw new Conflict(`There is already an account for ${clip(email, 100)}: sign in with it instead.`);
      }
      throw error;
    }
  }

  private async guard(attempt: SignInAttempt): Promise<void> {
    const verdict = await this.deps.signIns.check(attempt);
    if (!verdict.allowed) throw new TooManyRequests(verdict.retryAfterMs, TOO_MANY);
  }

  private async account(id: string): Promise<Account> {
    const account = await this.deps.accounts.get(id);
    if (!account) throw noAccount(id);
    return account;
  }

  private async adminInfo(account: Account): Promise<AdminAccountInfo> {
    const [quota, used] = await Promise.all([
      this.deps.quotas.monthlySteps(account.id),
      this.deps.usage.stepsThisMonth(account.id),
    ]);
    return { ...accountInfo(account), monthly_step_quota: quota, steps_this_month: used };
  }
}
