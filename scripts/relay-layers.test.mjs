import { describe, expect, it } from 'vitest';
import { relayLayerProblem } from './relay-layers.mjs';

const check = (file, spec) => relayLayerProblem(`relay/src/${file}`, spec);

describe('the relay layers', () => {
  it('lets a layer import the layers below it, and its own folder', () => {
    expect(check('http/routes/sessions.ts', '../../app/index')).toBeUndefined();
    expect(check('app/step.ts', '../agent/steps')).toBeUndefined();
    expect(check('agent/steps.ts', '../sessions/cancellation')).toBeUndefined();
    expect(check('retrieve/index.ts', '../model/index')).toBeUndefined();
    expect(check('sessions/manager.ts', '../browser/errors')).toBeUndefined();
    expect(check('browser/extension-driver.ts', '../gateway/errors')).toBeUndefined();
    expect(check('agent/builtin/planner.ts', '../planner')).toBeUndefined();
    expect(check('sessions/session.ts', '../errors')).toBeUndefined();
  });

  it('refuses an import of a higher layer, saying which rule', () => {
    expect(check('sessions/session.ts', '../agent/conversation')).toMatch(/sessions\/ is below agent\//);
    expect(check('sessions/lifecycle.ts', '../app/profiles')).toMatch(/sessions\/ is below app\//);
    expect(check('agent/steps.ts', '../app/index')).toMatch(/agent\/ is below app\//);
    expect(check('store/usage.ts', '../http/context')).toMatch(/store\/ is below http\//);
    expect(check('browser/driver.ts', '../sessions/session')).toMatch(/browser\/ is below sessions\//);
  });

  it('keeps the folders of one layer apart, but for the browser and its gateway', () => {
    expect(check('retrieve/index.ts', '../agent/quote')).toMatch(/retrieve\/ and agent\/ are one layer/);
    expect(check('model/model.ts', '../browser/driver')).toMatch(/model\/ and browser\/ are one layer/);
    expect(check('gateway/gateway.ts', '../browser/driver')).toBeUndefined();
  });

  it('sends http/ through app/ for the use cases', () => {
    expect(check('http/routes/browse.ts', '../../agent/steps')).toMatch(/through app\//);
    expect(check('http/routes/retrieve.ts', '../../retrieve/index')).toMatch(/through app\//);
  });

  it('keeps the Services bag to http/ and the wiring, and the kernel below every layer', () => {
    expect(check('http/app.ts', '../services')).toBeUndefined();
    expect(check('server.ts', './services')).toBeUndefined();
    expect(check('server.ts', './app/index')).toBeUndefined();
    expect(check('agent/steps.ts', '../services')).toMatch(/Services bag/);
    expect(check('sessions/lifecycle.ts', '../services')).toMatch(/Services bag/);
    expect(check('errors.ts', './http/error-status')).toMatch(/kernel/);
    expect(check('config.ts', './agent/control')).toMatch(/kernel/);
    expect(check('config.ts', './browser/script-watch')).toBeUndefined();
  });

  it('names a folder no layer holds', () => {
    expect(check('app/x.ts', '../workers/pool')).toMatch(/workers\/ has no layer/);
  });
});
