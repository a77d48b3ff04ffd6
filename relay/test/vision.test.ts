// Vision (TANDEM_MODEL_VISION): each step's set-of-marks screenshot goes to the model only when asked,
// within the context budget; a model that refuses images is learnt (auto) or fails the step (on). The
// scripted model answers from what it was sent: whether an image came, and how large it was.
import {
  type FixtureSite,
  type ModelServer,
  type RecordedRequest,
  startFixtureSite,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../src/config';
import { decision } from './agent-support';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let model: ModelServer;
beforeAll(async () => {
  [site, model] = await Promise.all([startFixtureSite(), startModelServer({ models: ['fast-model'] })]);
});
afterAll(async () => {
  await Promise.all([site?.close(), model?.close()]);
});
afterEach(() => model.reset());

/** The image parts of the request's user message, as {bytes, mime}. */
function imagesOf(request: RecordedRequest): { bytes: number; mime: string }[] {
  const user = request.body?.messages?.find((m) => m.role === 'user');
  if (!Array.isArray(user?.content)) return [];
  return user.content.flatMap((part) => {
    const url = (part.image_url as { url?: string } | undefined)?.url;
    if (part.type !== 'image_url' || !url) return [];
    const [head = '', data = ''] = url.split(',');
    return [{ mime: head.replace(/^data:|;base64$/g, ''), bytes: Buffer.from(data, 'base64').length }];
  });
}

/** A model that says what it saw: the image's type and size, or that there was none. */
const seeing = (request: RecordedRequest) => {
  const [image] = imagesOf(request);
  const seen = image ? `an image (${image.mime}, ${image.bytes} bytes)` : 'no image';
  return decision([{ action: 'done', message: `I saw ${seen}.` }]);
};

async function relayWith(env: Partial<Env>): Promise<TestRelay> {
  return startTestRelay({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-test',
    TANDEM_MODEL_FAST: 'fast-model',
    TANDEM_MODEL_OUTPUT: 'prompt',
    TANDEM_MODEL_MAX_RETRIES: 0,
    ...env,
  });
}

async function browse(relay: TestRelay, cmd = 'What does the page show?') {
  return relay.api('POST', '/v1/web/browse', { body: { cmd, url: `${site.url}/login.html`, max_steps: 3 } });
}

describe('TANDEM_MODEL_VISION', () => {
  it('on: each step sends the viewport as a JPEG with the marks, and the model answers from it', async () => {
    const relay = await relayWith({ TANDEM_MODEL_VISION: 'on' });
    try {
      model.script(seeing);
      const res = await browse(relay);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.message).toMatch(/^I saw an image \(image\/jpeg, \d+ bytes\)\.$/);
      const [image] = imagesOf(model.requests[0]!);
      // A 1280×800 viewport: more than a blank image, far less than a PNG of it.
      expect(image!.bytes).toBeGreaterThan(5_000);
      expect(image!.bytes).toBeLessThan(300_000);
      const text = JSON.stringify(model.requests[0]!.body?.messages);
      expect(text).toContain("each element's index drawn in a coloured box");
    } finally {
      await relay.close();
    }
  });

  it('off (the default): nothing is sent beyond the text', async () => {
    const relay = await relayWith({});
    try {
      model.script(seeing);
      const res = await browse(relay);
      expect(res.body.message).toBe('I saw no image.');
      expect(typeof model.requests[0]!.body?.messages?.find((m) => m.role === 'user')?.content).toBe('string');
    } finally {
      await relay.close();
    }
  });

  it('auto: a model that refuses images is asked again without, and never sent one again', async () => {
    const relay = await relayWith({ TANDEM_MODEL_VISION: 'auto' });
    try {
      const refusing = (request: RecordedRequest) =>
        imagesOf(request).length
          ? {
              kind: 'error' as const,
              status: 400,
              message: 'Invalid content type. image_url is only supported by certain models.',
            }
          : seeing(request);
      model.script(refusing, refusing, refusing);
      const first = await browse(relay);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.message).toBe('I saw no image.');
      const second = await browse(relay, 'And now?');
      expect(second.body.message).toBe('I saw no image.');
      expect(model.requests.map((r) => imagesOf(r).length)).toEqual([1, 0, 0]);
    } finally {
      await relay.close();
    }
  });

  it('on: a model that refuses images fails the step saying how to fix it', async () => {
    const relay = await relayWith({ TANDEM_MODEL_VISION: 'on' });
    try {
      model.script({ kind: 'error', status: 400, message: 'This model does not support image input.' });
      const res = await browse(relay);
      expect(res.body.message).toMatch(/does not take images .*TANDEM_MODEL_VISION=on needs a vision model/);
    } finally {
      await relay.close();
    }
  });

  it('a budget without room for the image and enough text leaves the image out', async () => {
    const relay = await relayWith({
      TANDEM_MODEL_VISION: 'on',
      TANDEM_MODEL_CONTEXT_TOKENS: { fast: 4096, standard: 4096 },
    });
    try {
      model.script(seeing);
      const res = await browse(relay);
      expect(res.body.message).toBe('I saw no image.');
    } finally {
      await relay.close();
    }
  });
});
