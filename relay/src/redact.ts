/**
 * Keeping secrets out of logs and answers: values of secret settings, credentials in URLs, tokens in
 * query strings, capability paths.
 */

export const REDACTED = '[redacted]';

/** Settings whose whole value is a secret: never printed, logged or answered. */
export const SECRET_SETTINGS = [
  'TANDEM_BOOTSTRAP_KEY',
  'OPENAI_API_KEY',
  'TANDEM_PROXY_URLS',
  'TANDEM_BROWSER_WS_ENDPOINT',
  'TANDEM_BROWSER_WS_ENDPOINTS',
  'TANDEM_DATABASE_URL',
  'TANDEM_REDIS_URL',
  'TANDEM_S3_URL',
] as const;

/** Settings that are URLs: printed with their credentials and token parameters masked. */
export const URL_SETTINGS = [
  'TANDEM_PUBLIC_URL',
  'OPENAI_BASE_URL',
  'TANDEM_EGRESS_URL',
  'TANDEM_START_URL',
  'TANDEM_NODE_URL',
] as const;

const SECRET_WORDS = new Set([
  'token',
  'key',
  'apikey',
  'sig',
  'signature',
  'secret',
  'password',
  'passwd',
  'pass',
  'pwd',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'jwt',
]);

/**
 * Whether a query parameter carries a credential: one of its words (split at `_`, `-`, `.` and
 * camelCase) is `token`, `key`, `sig`, `secret`, `password`…, as in `access_token`, `apiKey`,
 * `X-Amz-Signature`; `author` or `monkey` are not.
 */
function isSecretParam(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/);
  return words.some((word) => SECRET_WORDS.has(word) || word.endsWith('token') || word.endsWith('secret'));
}

/** `scheme://user:password@` in any text. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:"'<>]*):([^\s/?#@"'<>]+)@/gi;
/** `?name=value` / `&name=value` pairs in any text. */
const QUERY_PAIR = /([?&;])([\w.%-]+)=([^\s&#;"'<>]*)/g;

/** Masks the password in `user:password@` and the values of credential-like query parameters. */
export function redactUrls(text: string): string {
  return text
    .replace(USERINFO, (_all, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`)
    .replace(QUERY_PAIR, (all, sep: string, name: string, value: string) =>
      value && isSecretParam(decodeSafe(name)) ? `${sep}${name}=${REDACTED}` : all,
    );
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The literal secrets in a configuration: secret settings' values and the credentials inside them
 * (each proxy URL's password, decoded too; a ws endpoint's token), and the credentials of URL settings.
 */
export function configuredSecrets(settings: object): string[] {
  const config = settings as Record<string, unknown>;
  const secrets = new Set<string>();
  const add = (value: string | undefined) => {
    if (value && value.length >= 6) secrets.add(value);
  };
  const fromUrl = (raw: string) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return;
    }
    add(url.password);
    add(decodeSafe(url.password));
    for (const [name, value] of url.searchParams) if (isSecretParam(name)) add(value);
  };
  for (const name of SECRET_SETTINGS) {
    const value = config[name];
    if (typeof value !== 'string' || !value) continue;
    add(value);
    for (const part of value.split(',')) fromUrl(part.trim());
  }
  for (const name of URL_SETTINGS) {
    const value = config[name];
    if (typeof value === 'string') fromUrl(value);
  }
  // Longest first, so a secret that contains another is masked whole.
  return [...secrets].sort((a, b) => b.length - a.length);
}

/** How a secret may appear in text: as written, JSON-escaped, URL-encoded (also as a form encodes it). */
export function writtenForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [secret, JSON.stringify(secret).slice(1, -1), encoded, encoded.replaceAll('%20', '+')];
}

/** Replaces every occurrence of the secrets, as written, JSON-escaped or URL-encoded. */
export function redactor(secrets: string[]): (text: string) => string {
  const forms = new Set(secrets.flatMap(writtenForms));
  const ordered = [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
}

/** A value for a message about a setting: hidden for secrets, credentials masked for URLs. */
export function settingValueForDisplay(name: string, value: string | undefined): string {
  if (value === undefined) return '(unset)';
  if ((SECRET_SETTINGS as readonly string[]).includes(name)) return `(${value.length} characters, not shown)`;
  return JSON.stringify(redactUrls(value));
}

const CAPABILITY_PATH = /^(\/v1\/web\/screenshots\/)(\w{4})\w*(\.png)?$/;

/** A request path as logged: a screenshot's capability token is cut to its first characters. */
export function pathForLog(path: string): string {
  return path.replace(CAPABILITY_PATH, (_all, prefix: string, start: string) => `${prefix}${start}…`);
}
