import type { FirstStartCredentials } from './store/bootstrap';

/** What `npm start` prints: the new account's credentials on the first start (shown this once), else the URLs. */
export function startBanner(base: string, firstStart: FirstStartCredentials | undefined): string {
  if (!firstStart)
    return `\n  Tandem is running: console ${base}/console · API ${base}/v1/web · reference ${base}/docs\n\n`;
  const { email, password, apiKey } = firstStart;
  return [
    '',
    '  Tandem is ready. This is the first start, so an account and an API key were created.',
    '  They are shown this once; keep them somewhere safe.',
    '',
    `    account email : ${email}`,
    `    password      : ${password}`,
    `    API key       : ${apiKey}`,
    '',
    `    Console       : ${base}/console`,
    `    API           : ${base}/v1/web`,
    `    API reference : ${base}/docs`,
    '',
    '  Sign in to the console with this email and password; it then asks you to choose your own password.',
    `  Try it: curl -s ${base}/v1/web/sessions -H "X_SERVICE_API_KEY: ${apiKey}"`,
    '',
  ].join('\n');
}
