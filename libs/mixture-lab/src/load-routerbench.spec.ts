import { commonModels, modelsOfHeader, parseRouterBench } from './load-routerbench';
import { decodePromptLiteral, parsePythonStringList } from './python-literal';

describe('Python list literals', () => {
  it('decodes single- and double-quoted strings with escapes', () => {
    expect(parsePythonStringList(`['It\\'s\\na test', "say \\"hi\\"\\t\\\\ok"]`)).toEqual(["It's\na test", 'say "hi"\t\\ok']);
    expect(parsePythonStringList(`['\\x41\\u00e9\\101\\U0001F600']`)).toEqual(['AéA😀']);
    expect(parsePythonStringList(`["C:\\\\path", 'unknown \\q escape']`)).toEqual(['C:\\path', 'unknown \\q escape']);
  });

  it('reads raw strings, empty lists and trailing commas; rejects non-lists', () => {
    expect(parsePythonStringList(`[r'\\d+']`)).toEqual(['\\d+']);
    expect(parsePythonStringList('[]')).toEqual([]);
    expect(parsePythonStringList(`['a',]`)).toEqual(['a']);
    expect(parsePythonStringList('just text')).toBeNull();
    expect(parsePythonStringList(`['unterminated]`)).toBeNull();
  });

  it('turns a prompt cell into text: one item, repeated items collapsed, or the cell as is', () => {
    expect(decodePromptLiteral(`['Question?\\nA) x\\nAnswer:']`)).toBe('Question?\nA) x\nAnswer:');
    expect(decodePromptLiteral(`['same', 'same']`)).toBe('same');
    expect(decodePromptLiteral(`['first', 'second']`)).toBe('first\n\nsecond');
    expect(decodePromptLiteral('plain prompt')).toBe('plain prompt');
  });
});

describe('RouterBench CSV', () => {
  const csv = [
    ',sample_id,prompt,eval_name,rosetta/gpt-4o-mini,rosetta/claude-haiku-4-5,rosetta/claude-haiku-4-5|model_response,rosetta/gpt-4o-mini|model_response,rosetta/gpt-4o-mini|total_cost,rosetta/claude-haiku-4-5|total_cost,orphan,oracle_model_to_route_to',
    `0,s1,"['Pick one, please:\\nA) x\\nB) y']",quiz,1.0,0.0,"['B']","['A']",0.0001,0.0003,1,rosetta/gpt-4o-mini`,
    `1,s2,"['Skipped: a score is missing']",quiz,,1.0,"['A']","['A']",0.0001,0.0003,1,x`,
    `2,s3,"[""It's code""]",,0,1,"[""def f(): pass""]","['no']",0.0002,0.0004,0,y`,
  ].join('\n');

  it('finds models by their score and |total_cost columns, whatever their names', () => {
    const header = csv.split('\n')[0]?.split(',') ?? [];
    expect(modelsOfHeader(header)).toEqual(['rosetta/gpt-4o-mini', 'rosetta/claude-haiku-4-5']);
  });

  it('decodes rows, skips rows with a missing score, falls back to the file task', () => {
    const rows = parseRouterBench(csv, 'myfile');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      prompt: 'Pick one, please:\nA) x\nB) y',
      task: 'quiz',
      scores: { 'rosetta/gpt-4o-mini': 1, 'rosetta/claude-haiku-4-5': 0 },
      costs: { 'rosetta/gpt-4o-mini': 0.0001, 'rosetta/claude-haiku-4-5': 0.0003 },
      responses: { 'rosetta/gpt-4o-mini': 'A', 'rosetta/claude-haiku-4-5': 'B' },
    });
    expect(rows[1]?.prompt).toBe("It's code");
    expect(rows[1]?.task).toBe('myfile');
    expect(rows[1]?.responses['rosetta/claude-haiku-4-5']).toBe('def f(): pass');
    expect(commonModels(rows)).toEqual(['rosetta/gpt-4o-mini', 'rosetta/claude-haiku-4-5']);
  });

  it('rejects files without a prompt column or without models', () => {
    expect(() => parseRouterBench('a,b\n1,2\n')).toThrow(/prompt/);
    expect(() => parseRouterBench('prompt,m\nx,1\n')).toThrow(/total_cost/);
  });
});
