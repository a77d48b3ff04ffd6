import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { retrieveModel } from './index';

const config = (env: Record<string, string>) => loadConfig({}, env);

describe('retrieveModel', () => {
  it('takes the mode’s model, or the other one when only one is set', () => {
    const both = config({ OPENAI_API_KEY: 'k', TANDEM_MODEL_FAST: 'f', TANDEM_MODEL_STANDARD: 's' });
    expect([retrieveModel(both, 'fast'), retrieveModel(both, 'standard')]).toEqual(['f', 's']);
    const one = config({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', TANDEM_MODEL_STANDARD: 's' });
    expect([retrieveModel(one, 'fast'), retrieveModel(one, 'standard')]).toEqual(['s', 's']);
  });

  it('is undefined without an endpoint or without a model', () => {
    expect(retrieveModel(config({ TANDEM_MODEL_FAST: 'f' }), 'fast')).toBeUndefined();
    expect(retrieveModel(config({ OPENAI_API_KEY: 'k' }), 'fast')).toBeUndefined();
  });
});
