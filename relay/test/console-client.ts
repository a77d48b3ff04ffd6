import type { ConsoleSignIn } from '@tandem/shared';
import type { ApiResponse } from './support';

/** A browser's view of the console: the sign-in cookie it got and the CSRF token the sign-in answered. */
export interface ConsoleClient {
  cookie: string;
  csrf: string;
  /** Calls the admin API with the cookie (and the CSRF token unless `csrf: null`), never an API key. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; csrf?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
}

/** What a sign-in answered, with the cookie it set. */
export async function consoleSignIn(
  url: string,
  email: string,
  password: string,
): Promise<{ response: ApiResponse<ConsoleSignIn>; setCookie: string; client: ConsoleClient | undefined }> {
  const res = await fetch(`${url}/v1/console/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as ConsoleSignIn;
  const setCookie = res.headers.get('set-cookie') ?? '';
  const response = { status: res.status, headers: res.headers, body };
  if (res.status !== 200) return { response, setCookie, client: undefined };
  return { response, setCookie, client: consoleClient(url, setCookie.split(';')[0] ?? '', body.csrf_token) };
}

export function consoleClient(url: string, cookie: string, csrf: string): ConsoleClient {
  return {
    cookie,
    csrf,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { cookie, ...options.headers };
      const token = options.csrf === undefined ? csrf : options.csrf;
      if (token !== null) headers['x-csrf-token'] = token;
      let payload: string | undefined;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const res = await fetch(`${url}${path}`, { method, headers, body: payload });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, headers: res.headers, body: body as never };
    },
  };
}
