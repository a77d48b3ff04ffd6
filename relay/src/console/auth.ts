import type { AccountInfo, MeResponse } from '@tandem/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, setCsrfToken, whenSignedOut } from './api';

// Who is signed in, for every page: undefined while the relay is first asked, null when no one is.

export interface SignedIn {
  account: AccountInfo;
  signupAllowed: boolean;
}

let current: SignedIn | null | undefined;
/** The password just used to sign in, kept in memory only, so "choose your password" need not ask it again. */
let madePassword = '';
const listeners = new Set<(value: SignedIn | null | undefined) => void>();

function publish(value: SignedIn | null): void {
  current = value;
  for (const listener of listeners) listener(value);
}

export function useSignedIn(): SignedIn | null | undefined {
  const [value, setValue] = useState(current);
  useEffect(() => {
    listeners.add(setValue);
    // The answer may have come between the first render and this subscription.
    setValue(current);
    return () => void listeners.delete(setValue);
  }, []);
  return value;
}

/** Asks the relay who this browser is signed in as (the cookie is HttpOnly: no script can read it). */
export async function loadSignedIn(): Promise<void> {
  try {
    const me: MeResponse = await api.me();
    setCsrfToken(me.csrf_token);
    publish({ account: me.account, signupAllowed: me.signup_allowed });
  } catch {
    publish(null);
  }
}

export function signedIn(account: AccountInfo, csrf: string, password: string, signupAllowed = false): void {
  setCsrfToken(csrf);
  madePassword = account.must_change_password ? password : '';
  publish({ account, signupAllowed });
}

export function accountChanged(account: AccountInfo): void {
  if (!account.must_change_password) madePassword = '';
  if (current) publish({ ...current, account });
}

export function rememberedPassword(): string {
  return madePassword;
}

export async function signOut(): Promise<void> {
  try {
    await api.signOut();
  } finally {
    setCsrfToken('');
    madePassword = '';
    publish(null);
  }
}

whenSignedOut(() => {
  if (current) publish(null);
});
