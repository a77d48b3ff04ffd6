import { describe, expect, it } from 'vitest';
import { configuredSecrets, pathForLog, redactor, redactUrls, settingValueForDisplay } from './redact';

describe('redactUrls', () => {
  it.each([
    ['wss://browsers.example/pw?token=abc123&region=eu', 'wss://browsers.example/pw?token=[redacted]&region=eu'],
    ['http://user:p%40ss@proxy.example:8080', 'http://user:[redacted]@proxy.example:8080'],
    [
      'https://s3.example/x.png?X-Amz-Signature=f00&X-Amz-Credential=AKIA',
      'https://s3.example/x.png?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]',
    ],
    [
      'https://api.example/v1?api_key=k1&apiKey=k2&access_token=t&sig=s&password=p',
      'https://api.example/v1?api_key=[redacted]&apiKey=[redacted]&access_token=[redacted]&sig=[redacted]&password=[redacted]',
    ],
    ['opened https://blog.example/?author=ada&page=2 then', 'opened https://blog.example/?author=ada&page=2 then'],
  ])('%s', (text, expected) => {
    expect(redactUrls(text)).toBe(expected);
  });
});

describe('configuredSecrets and the redactor', () => {
  const config = {
    TANDEM_BOOTSTRAP_KEY: 'tdm_bootstrap_0123456789abcdef',
    OPENAI_API_KEY: 'sk-abcdef123456',
    TANDEM_PROXY_URLS: 'http://u:pa%40ss-word@gw.example:1, socks5://v:second-pass@gw2.example:2',
    TANDEM_BROWSER_WS_ENDPOINT: 'wss://b.example/?token=tok-123456',
    OPENAI_BASE_URL: 'https://svc.example/v1?api-key=azure-key-99',
    TANDEM_S3_URL: 'https://AKIAEXAMPLE:s3%2Fsecret%2Bkey@s3.eu-central-1.amazonaws.com/shots',
    PORT: 8787,
  };

  it('collects the secret settings and the credentials inside URL settings', () => {
    const secrets = configuredSecrets(config);
    for (const secret of [
      'tdm_bootstrap_0123456789abcdef',
      'sk-abcdef123456',
      'pa%40ss-word',
      'pa@ss-word',
      'second-pass',
      'tok-123456',
      'azure-key-99',
      's3%2Fsecret%2Bkey',
      's3/secret+key',
    ]) {
      expect(secrets).toContain(secret);
    }
  });

  it('masks each secret as written, JSON-escaped or URL-encoded', () => {
    const redact = redactor(['pa@ss-word', 'quote"d-secret']);
    expect(redact('a pa@ss-word b pa%40ss-word c')).toBe('a [redacted] b [redacted] c');
    expect(redact(JSON.stringify({ m: 'quote"d-secret' }))).toBe('{"m":"[redacted]"}');
  });
});

describe('what is shown of a setting and a path', () => {
  it('hides secret settings and masks credentials in URL settings', () => {
    expect(settingValueForDisplay('OPENAI_API_KEY', 'sk-123')).toBe('(6 characters, not shown)');
    expect(settingValueForDisplay('OPENAI_BASE_URL', 'https://u:pw@x.example/v1')).toBe(
      '"https://u:[redacted]@x.example/v1"',
    );
    expect(settingValueForDisplay('PORT', 'eighty')).toBe('"eighty"');
    expect(settingValueForDisplay('PORT', undefined)).toBe('(unset)');
  });

  it('logs a screenshot capability path by its first characters only', () => {
    expect(pathForLog('/v1/web/screenshots/Ab12Cd34Ef56Gh78.png')).toBe('/v1/web/screenshots/Ab12…');
    expect(pathForLog('/v1/web/session/ses_n0_abc')).toBe('/v1/web/session/ses_n0_abc');
  });
});
