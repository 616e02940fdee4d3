import { refusesEncryptedReasoning } from './openai-responses-error';

describe('refusesEncryptedReasoning', () => {
  const refusal = JSON.stringify({ error: { message: 'Encrypted content is not supported with this model.', type: 'invalid_request_error', param: 'include', code: null } });

  it("recognises OpenAI's 400 for encrypted reasoning asked of a model that does not reason", () => {
    expect(refusesEncryptedReasoning(400, refusal)).toBe(true);
  });

  it('takes no other answer for it: another status, another parameter, another message, or no JSON', () => {
    const other = (error: Record<string, unknown>) => JSON.stringify({ error: { message: 'Encrypted content is not supported with this model.', param: 'include', ...error } });
    expect([
      refusesEncryptedReasoning(500, refusal),
      refusesEncryptedReasoning(400, other({ param: 'input' })),
      refusesEncryptedReasoning(400, other({ message: 'Invalid value for include.' })),
      refusesEncryptedReasoning(400, 'Bad Request'),
    ]).toEqual([false, false, false, false]);
  });
});
