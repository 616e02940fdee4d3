import { type GatewayError } from '@rosetta/canonical';
import { loadCatalog } from './catalog';
import { checkModelName, MODEL_NAME_PATTERN, parseModelId } from './model-id';

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

describe('checkModelName', () => {
  it('takes every model name of the catalog', () => {
    const catalog = loadCatalog();
    const names = [...catalog.models.map((m) => m.name), ...catalog.providers.flatMap((p) => (p.endpoints ?? []).map((e) => e.model.replace(/^rosetta\//, '')))];
    expect(names.filter((name) => !MODEL_NAME_PATTERN.test(name))).toEqual([]);
    for (const name of names) expect(() => checkModelName(name, 'name')).not.toThrow();
  });

  it('refuses names outside the safe ASCII form, naming the field', () => {
    for (const name of ['модель', '', '-x', 'a b', 'a\u0000', 'a//b', 'a/', 'é', 'x'.repeat(129)]) {
      expect(() => checkModelName(name, 'endpoints[0].model')).toThrow(expect.objectContaining({ param: 'endpoints[0].model', message: expect.stringMatching(/^Invalid 'endpoints\[0\]\.model': a model name is 1 to 128 ASCII/) }));
    }
    expect(() => checkModelName('Org/model-1.5:free@v2+x_y', 'name')).not.toThrow();
  });
});
