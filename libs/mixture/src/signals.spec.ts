import type { CanonicalRequest } from '@rosetta/canonical';
import { extractSignals, signalValue } from './signals';
import type { Signal } from './types';

const get = (signals: Signal[], name: string): Signal => {
  const s = signals.find((x) => x.name === name);
  if (!s) throw new Error(`no signal ${name}`);
  return s;
};

describe('extractSignals: text', () => {
  it('recognises code (fences, keywords, a code request)', () => {
    const s = extractSignals({ text: 'Fix this:\n```js\nfunction add(a, b) {\n  return a + b;\n}\n```' });
    expect(get(s, 'code').value).toBe(true);
    expect(get(s, 'code').confidence).toBeGreaterThanOrEqual(0.5);
    expect(signalValue(extractSignals({ text: 'Write a python function to reverse a list.' }), 'code')).toBe(true);
    expect(signalValue(extractSignals({ text: 'Tell me a story about a dragon who loves tea.' }), 'code')).toBe(false);
  });

  it('recognises maths (operators, LaTeX, word problems)', () => {
    expect(signalValue(extractSignals({ text: 'Solve for x: 3x + 5 = 20. What is the value of x?' }), 'math')).toBe(true);
    expect(signalValue(extractSignals({ text: 'Evaluate $\\frac{1}{2} + \\sqrt{16}$' }), 'math')).toBe(true);
    expect(signalValue(extractSignals({ text: 'If a train travels 120 km in 2 hours, how many km does it travel in 5 hours?' }), 'math')).toBe(true);
    expect(signalValue(extractSignals({ text: 'Describe the smell of rain in a forest.' }), 'math')).toBe(false);
  });

  it('detects the writing system', () => {
    const cjk = get(extractSignals({ text: '请用中文解释量子计算的基本原理。' }), 'language_script');
    expect(cjk.value).toBe('cjk');
    expect(cjk.confidence).toBeGreaterThan(0.9);
    expect(signalValue(extractSignals({ text: 'Привет, как дела? Расскажи о погоде.' }), 'language_script')).toBe('cyrillic');
    expect(signalValue(extractSignals({ text: 'ما هي عاصمة فرنسا؟' }), 'language_script')).toBe('arabic');
    expect(signalValue(extractSignals({ text: 'What is the capital of France?' }), 'language_script')).toBe('latin');
  });

  it('counts multiple-choice options of the last block', () => {
    const mc = 'Which gas do plants absorb?\nA) oxygen\nB) carbon dioxide\nC) helium\nD) neon\nAnswer:';
    expect(signalValue(extractSignals({ text: mc }), 'multiple_choice')).toBe(4);
    expect(signalValue(extractSignals({ text: 'Pick one:\n(A) yes\n(B) no' }), 'multiple_choice')).toBe(2);
    expect(signalValue(extractSignals({ text: 'A) is not a list on its own.' }), 'multiple_choice')).toBe(0);
  });

});

describe('extractSignals: size and request', () => {
  it('counts tokens exactly for short prompts and estimates long ones', () => {
    const short = get(extractSignals({ text: 'hello world' }), 'prompt_tokens');
    expect(short).toEqual({ name: 'prompt_tokens', value: 2, confidence: 1 });
    const long = get(extractSignals({ text: 'word '.repeat(2000) }), 'prompt_tokens');
    expect(long.value).toBe(2500);
    expect(long.confidence).toBeLessThan(1);
  });

  it('adds request signals: images, documents, tools, JSON output, thinking, history', () => {
    const request: CanonicalRequest = {
      model: 'rosetta/auto',
      stream: false,
      routing: {} as CanonicalRequest['routing'],
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture and this file?' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } },
            { type: 'document', source: { kind: 'text', mediaType: 'text/plain', data: 'notes' } },
          ],
        },
      ],
      tools: [{ name: 'lookup' }],
      responseFormat: { type: 'json_object' },
      thinking: { enabled: true, budgetTokens: 1024 },
    };
    const s = extractSignals({ text: 'What is in this picture and this file?', request });
    expect(signalValue(s, 'images')).toBe(1);
    expect(signalValue(s, 'documents')).toBe(1);
    expect(signalValue(s, 'tools')).toBe(1);
    expect(signalValue(s, 'json_output')).toBe(true);
    expect(signalValue(s, 'thinking')).toBe(true);
    expect(signalValue(s, 'history_messages')).toBe(2);
    for (const sig of s) {
      expect(sig.confidence).toBeGreaterThanOrEqual(0);
      expect(sig.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('is deterministic and always reports a category', () => {
    const text = 'Compose an engaging travel blog post about a recent trip to Hawaii.';
    expect(extractSignals({ text })).toEqual(extractSignals({ text }));
    expect(typeof signalValue(extractSignals({ text }), 'category')).toBe('string');
  });
});
