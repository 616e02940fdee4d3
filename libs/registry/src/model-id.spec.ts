import { type GatewayError } from '@rosetta/canonical';
import { parseModelId } from './model-id';

function rejection(model: unknown): { type: string; status: number; message: string } {
  try {
    parseModelId(model, 'rosetta');
  } catch (e) {
    const err = e as GatewayError;
    return { type: err.type, status: err.status, message: err.message };
  }
  throw new Error(`expected ${String(model)} to be rejected`);
}

describe('parseModelId', () => {
  it.each(['rosetta/auto', 'rosetta/gpt-4o-mini', 'rosetta/org/model'])('accepts %s', (model) => {
    expect(parseModelId(model, 'rosetta')).toBe(model.slice('rosetta/'.length));
  });

  it.each(['rosetta', 'rosetta/', 'rosetta/rosetta', 'rosetta/rosetta/auto', 'gpt-4o', 'openai/gpt-4o', '', 'Rosetta/auto'])(
    'rejects %p with the documented 400',
    (model) => {
      expect(rejection(model)).toEqual({
        type: 'invalid_request_error',
        status: 400,
        message: `invalid model '${model}': only rosetta/* models are supported`,
      });
    },
  );

  it('rejects a non-string model', () => {
    expect(rejection(42)).toEqual({
      type: 'invalid_request_error',
      status: 400,
      message: "invalid model '': only rosetta/* models are supported",
    });
  });
});
