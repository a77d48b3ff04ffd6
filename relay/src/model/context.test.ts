import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { contextRefusal, estimateTokens } from './context';

const refusal = (status: number, body: object) =>
  contextRefusal(APIError.generate(status, body, undefined, new Headers()));

describe('contextRefusal', () => {
  it('reads the limit from OpenAI/vLLM, llama.cpp and LM Studio wording', () => {
    expect(
      refusal(400, {
        error: { message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens." },
      }),
    ).toEqual({ limit: 4096 });
    expect(
      refusal(500, {
        error: { message: 'the request exceeds the available context size, try increasing it', n_ctx: 8192 },
      }),
    ).toEqual({ limit: 8192 });
    expect(
      refusal(400, {
        error: {
          message:
            'Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens',
        },
      }),
    ).toEqual({ limit: 4096 });
  });

  it('knows a refusal without a number, and leaves other errors alone', () => {
    expect(refusal(400, { error: { message: 'prompt is too long' } })).toEqual({});
    expect(refusal(400, { error: { message: "this model does not support 'tools'" } })).toBeUndefined();
    expect(refusal(401, { error: { message: 'bad key' } })).toBeUndefined();
  });

  it('estimates tokens at 3.5 characters each', () => {
    expect(estimateTokens('x'.repeat(350))).toBe(100);
  });
});
