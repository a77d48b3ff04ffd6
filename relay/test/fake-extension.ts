// A scripted stand-in for the extension on the real WebSocket protocol: for relay tests of the gateway
// and of what reaches it, where the real extension in a browser (e2e/) is more than the test needs.
import { EXTENSION_ID, PROTOCOL_VERSION } from '@tandem/shared';
import { WebSocket } from 'ws';

export const ORIGIN = `chrome-extension://${EXTENSION_ID}`;

/** A scripted stand-in for the extension: answers commands with `answer`, records what it got. */
export class FakeExtension {
  readonly received: { id: number; type: string; params: Record<string, unknown> }[] = [];
  answer: (type: string, params: Record<string, unknown>) => unknown = (type, params) => defaultAnswer(type, params);
  /** When false, requests are recorded but never answered (to test in-flight failures). */
  replying = true;
  closeInfo: Promise<{ code: number; reason: string }>;
  welcome: Promise<Record<string, unknown>>;

  private constructor(readonly ws: WebSocket) {
    this.closeInfo = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    this.welcome = new Promise((resolve) => {
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; type: string; params?: Record<string, unknown> };
        if (message.type === 'welcome') return resolve(message);
        if (message.type === 'pong' || message.id === undefined) return;
        this.received.push({ id: message.id, type: message.type, params: message.params ?? {} });
        if (!this.replying) return;
        const result = this.answer(message.type, message.params ?? {});
        const reply =
          result instanceof Error
            ? { ok: false, error: { code: result.message, message: `fake ${result.message}` } }
            : { ok: true, result };
        ws.send(JSON.stringify({ v: PROTOCOL_VERSION, type: 'response', id: message.id, ...reply }));
      });
    });
  }

  static async connect(url: string, hello: Record<string, unknown>, origin = ORIGIN): Promise<FakeExtension> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/extension/ws`, { origin });
    const fake = new FakeExtension(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(
      JSON.stringify({
        v: PROTOCOL_VERSION,
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        extensionVersion: '0.1.0',
        apiEnabled: true,
        ...hello,
      }),
    );
    return fake;
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...message }));
  }

  close(): void {
    this.ws.terminate();
  }
}

function defaultAnswer(type: string, params: Record<string, unknown>): unknown {
  const tabId = (params.tabId as number | undefined) ?? 7;
  const url = (params.url as string | undefined) ?? 'http://example.test/';
  switch (type) {
    case 'tab.open':
    case 'navigate':
    case 'tab.info':
      return { tabId, url, title: 'Example' };
    case 'tab.close':
      return { closed: true };
    case 'screenshot':
      return { png: Buffer.from('fake png').toString('base64') };
    default:
      return new Error('internal');
  }
}
