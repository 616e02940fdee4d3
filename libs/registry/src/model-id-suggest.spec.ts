import { modelNotFound, nearestModelId } from './model-id';

const KNOWN = ['rosetta/auto', 'rosetta/claude-haiku-4-5', 'rosetta/claude-sonnet-4-5', 'rosetta/gpt-4o-mini', 'rosetta/gemini-2.5-flash'];

describe('nearestModelId', () => {
  it('finds what a near-miss id meant', () => {
    expect(nearestModelId('rosetta/claude-haiku-4.5', KNOWN)).toBe('rosetta/claude-haiku-4-5');
    expect(nearestModelId('rosetta/GPT-4o-mini', KNOWN)).toBe('rosetta/gpt-4o-mini');
    expect(nearestModelId('rosetta/gemini-2.5-flsh', KNOWN)).toBe('rosetta/gemini-2.5-flash');
  });

  it('suggests nothing for an id that is not close to any', () => {
    expect(nearestModelId('rosetta/does-not-exist', KNOWN)).toBeUndefined();
    expect(nearestModelId('x'.repeat(300), KNOWN)).toBeUndefined();
  });

  it('puts the suggestion in the 404', () => {
    expect(modelNotFound('rosetta/claude-haiku-4.5', 'model', 'rosetta/claude-haiku-4-5').message).toBe(
      "Model 'rosetta/claude-haiku-4.5' not found; did you mean 'rosetta/claude-haiku-4-5'?",
    );
    expect(modelNotFound('rosetta/x').message).toBe("Model 'rosetta/x' not found");
  });
});
