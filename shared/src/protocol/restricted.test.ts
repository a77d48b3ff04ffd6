import { describe, expect, it } from 'vitest';
import { restrictedPageMessage, restrictedReason } from './restricted';

describe('restricted pages', () => {
  it('are browser pages, other extensions and the web store', () => {
    expect(restrictedReason('chrome://settings')).toMatch(/chrome:\/\/ pages belong to the browser/);
    expect(restrictedReason('devtools://devtools/bundled/inspector.html')).toMatch(/devtools:/);
    expect(restrictedReason('chrome-extension://abc/popup.html')).toMatch(/other extensions' pages/);
    expect(restrictedReason('https://chromewebstore.google.com/detail/x')).toMatch(/Chrome Web Store/);
    expect(restrictedReason('https://chrome.google.com/webstore/category/extensions')).toMatch(/Chrome Web Store/);
  });

  it('leave ordinary pages, about:blank, data URLs and the rest of chrome.google.com alone', () => {
    for (const url of ['https://example.com/', 'http://127.0.0.1:8787/docs', 'about:blank', 'data:text/html,hi']) {
      expect(restrictedReason(url), url).toBeUndefined();
    }
    expect(restrictedReason('https://chrome.google.com/intl/en/chrome/')).toBeUndefined();
    expect(restrictedReason('not a url')).toBeUndefined();
  });

  it('say what to do instead', () => {
    expect(restrictedPageMessage('chrome://version')).toBe(
      'chrome://version is a restricted page: chrome:// pages belong to the browser and extensions cannot act on them. Open an ordinary http(s) page instead.',
    );
    expect(restrictedPageMessage('https://example.com/')).toBeUndefined();
  });
});
