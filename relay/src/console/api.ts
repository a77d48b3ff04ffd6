import type {
  AccountsResponse,
  AdminAccountInfo,
  AgentInfo,
  AgentsResponse,
  ApiKeysResponse,
  AuthOptions,
  ChangePasswordRequest,
  CloseSessionResponse,
  ConsoleSessionsResponse,
  ConsoleSignIn,
  CreateAccountRequest,
  CreateAgentRequest,
  CreatedAccount,
  CreatedApiKey,
  CreateSkillRequest,
  DevicesResponse,
  ErrorBody,
  Guardrails,
  GuardrailsResponse,
  MeResponse,
  PairingCode,
  PasswordChanged,
  PasswordReset,
  PutSecretRequest,
  Removed,
  SecretInfo,
  SecretsResponse,
  SessionStepsResponse,
  SignInRequest,
  SignUpRequest,
  SkillInfo,
  SkillPreviewResponse,
  SkillsResponse,
  UpdateAccountRequest,
  UpdateAgentRequest,
  UpdateSkillRequest,
  UsageResponse,
  ValidationErrorBody,
} from '@tandem/shared';

/** A failed admin API call, in words: the relay's message, and per field what a 422 said about it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Field name → what is wrong with it (from a 422's `detail`). */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => {};

/** The token every change made with the console cookie carries (the sign-in and /me answer it). */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token ?? '';
}

/** What to do when the relay no longer knows the sign-in (expired, or ended by a password change elsewhere). */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

const AUTH_PATHS = new Set(['/auth/sign-in', '/auth/sign-up']);

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/v1/console${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'The relay cannot be reached: is it running? Try again in a moment.');
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = undefined;
  }
  if (res.ok) return parsed as T;
  if (res.status === 401 && !AUTH_PATHS.has(path)) onSignedOut();
  throw errorOf(res.status, parsed);
}

function errorOf(status: number, body: unknown): ApiError {
  const detail = (body as Partial<ValidationErrorBody> | undefined)?.detail;
  if (status === 422 && Array.isArray(detail)) {
    const fields: Record<string, string> = {};
    // loc is ["body", field] or ["body", field, index] for an item of a list: the field is the last name.
    const fieldOf = (loc: readonly (string | number)[]) =>
      String([...loc].reverse().find((part) => typeof part === 'string' && part !== 'body') ?? '');
    for (const issue of detail) fields[fieldOf(issue.loc)] ??= issue.msg;
    const first = detail[0];
    const summary =
      detail.length === 1 && first
        ? `${fieldOf(first.loc).replaceAll('_', ' ')}: ${first.msg}`
        : 'Some fields need a change.';
    return new ApiError(status, summary, fields);
  }
  const message = (body as Partial<ErrorBody> | undefined)?.message;
  return new ApiError(status, message || `The relay answered ${status}. Try again, or reload the page.`);
}

const get = <T>(path: string) => call<T>('GET', path);
const enc = encodeURIComponent;

/** The admin API (/v1/console/…), one function per endpoint the pages use. */
export const api = {
  authOptions: () => get<AuthOptions>('/auth'),
  signIn: (body: SignInRequest) => call<ConsoleSignIn>('POST', '/auth/sign-in', body),
  signUp: (body: SignUpRequest) => call<ConsoleSignIn>('POST', '/auth/sign-up', body),
  signOut: () => call<unknown>('POST', '/auth/sign-out'),
  me: () => get<MeResponse>('/me'),
  changePassword: (body: ChangePasswordRequest) => call<PasswordChanged>('POST', '/me/password', body),

  accounts: () => get<AccountsResponse>('/accounts'),
  createAccount: (body: Partial<CreateAccountRequest>) => call<CreatedAccount>('POST', '/accounts', body),
  updateAccount: (id: string, body: UpdateAccountRequest) =>
    call<AdminAccountInfo>('PATCH', `/accounts/${enc(id)}`, body),
  deleteAccount: (id: string) => call<Removed>('DELETE', `/accounts/${enc(id)}`),
  resetPassword: (id: string) => call<PasswordReset>('POST', `/accounts/${enc(id)}/password`),

  apiKeys: () => get<ApiKeysResponse>('/api-keys'),
  createApiKey: (name: string) => call<CreatedApiKey>('POST', '/api-keys', { name }),
  revokeApiKey: (id: string) => call<Removed>('DELETE', `/api-keys/${enc(id)}`),

  skills: () => get<SkillsResponse>('/skills'),
  createSkill: (body: CreateSkillRequest) => call<SkillInfo>('POST', '/skills', body),
  updateSkill: (id: string, body: UpdateSkillRequest) => call<SkillInfo>('PATCH', `/skills/${enc(id)}`, body),
  deleteSkill: (id: string) => call<Removed>('DELETE', `/skills/${enc(id)}`),
  previewSkills: (url: string) => call<SkillPreviewResponse>('POST', '/skills/preview', { url }),
  guardrails: () => get<GuardrailsResponse>('/guardrails'),
  setGuardrails: (body: Guardrails) => call<GuardrailsResponse>('PUT', '/guardrails', body),

  agents: () => get<AgentsResponse>('/agents'),
  createAgent: (body: CreateAgentRequest) => call<AgentInfo>('POST', '/agents', body),
  updateAgent: (id: string, body: UpdateAgentRequest) => call<AgentInfo>('PATCH', `/agents/${enc(id)}`, body),
  deleteAgent: (id: string) => call<Removed>('DELETE', `/agents/${enc(id)}`),

  secrets: () => get<SecretsResponse>('/secrets'),
  putSecret: (name: string, body: PutSecretRequest) => call<SecretInfo>('PUT', `/secrets/${enc(name)}`, body),
  deleteSecret: (name: string) => call<Removed>('DELETE', `/secrets/${enc(name)}`),

  devices: () => get<DevicesResponse>('/devices'),
  revokeDevice: (id: string) => call<Removed>('DELETE', `/devices/${enc(id)}`),
  pairingCode: () => call<PairingCode>('POST', '/devices/pairing-codes'),

  sessions: () => get<ConsoleSessionsResponse>('/sessions'),
  closeSession: (id: string) => call<CloseSessionResponse>('DELETE', `/sessions/${enc(id)}`),
  steps: (id: string) => get<SessionStepsResponse>(`/sessions/${enc(id)}/steps`),
  liveStepsUrl: (id: string) => `/v1/console/sessions/${enc(id)}/steps/live`,

  usage: (days: number) => get<UsageResponse>(`/usage?days=${days}`),
};
