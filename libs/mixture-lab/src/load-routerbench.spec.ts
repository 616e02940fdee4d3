import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commonModels, loadRouterBench, modelsOfHeader, parseRouterBench } from './load-routerbench';
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

// The CSV framing is csv-parse's; these pin the options it is called with, on the shapes
// RouterBench cells take (long prompts and responses with commas, quotes and line breaks).
describe('RouterBench CSV framing', () => {
  const HEADER = 'prompt,m,m|total_cost,m|model_response';
  const prompts = (text: string): string[] => parseRouterBench(text).map((r) => r.prompt);

  it('keeps commas, doubled quotes and line breaks inside quoted cells', () => {
    const rows = parseRouterBench(`${HEADER}\n"hello, world",1,0.1,"she said ""hi"""\n"line one\nline two\r\nline three",0,0.2,x\n`);
    expect(rows.map((r) => [r.prompt, r.responses['m']])).toEqual([
      ['hello, world', 'she said "hi"'],
      ['line one\nline two\r\nline three', 'x'],
    ]);
  });

  it('ends records at CRLF, LF or CR, even mixed, skips blank lines and needs no final newline', () => {
    expect(prompts(`${HEADER}\r\na,1,0.1,\n\nb,0,0.2,\r\r\nc,1,0.3,`)).toEqual(['a', 'b', 'c']);
  });

  it('skips a short record (its score is missing) and keeps a quote inside an unquoted cell', () => {
    expect(prompts(`${HEADER}\nonly a prompt\nsay "hi" there,1,0.1,ok\n`)).toEqual(['say "hi" there']);
  });

  describe('files', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rosetta-routerbench-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads a file with a byte-order mark and names its task after the file', () => {
      const path = join(dir, 'quiz_train.csv');
      writeFileSync(path, `\uFEFF${HEADER}\r\n"['Which one?\\nA) x']",1,0.1,"['A']"\r\n`);
      expect(loadRouterBench([path])).toEqual([{ prompt: 'Which one?\nA) x', task: 'quiz', scores: { m: 1 }, costs: { m: 0.1 }, responses: { m: 'A' } }]);
    });

    it('names the file when a quoted cell is never closed', () => {
      const path = join(dir, 'broken.csv');
      writeFileSync(path, `${HEADER}\n"a quote never closed,1,0.1,x\n`);
      expect(() => loadRouterBench([path])).toThrow(path);
    });
  });
});
