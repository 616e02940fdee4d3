import { CsvParser, parseCsv, parseCsvObjects } from './csv';

describe('parseCsv', () => {
  it('splits plain fields and records', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    const text = 'id,text\n1,"hello, world"\n2,"she said ""hi"""\n3,"line one\nline two\r\nline three"\n';
    expect(parseCsv(text)).toEqual([
      ['id', 'text'],
      ['1', 'hello, world'],
      ['2', 'she said "hi"'],
      ['3', 'line one\nline two\r\nline three'],
    ]);
  });

  it('handles CRLF, empty fields, a missing final newline and blank lines', () => {
    expect(parseCsv('a,,c\r\n,"",\r\n\r\nx,y,z')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
      ['x', 'y', 'z'],
    ]);
  });

  it('gives the same records whatever the chunk boundaries', () => {
    const text = 'h1,h2\r\n"a ""q"", b","multi\r\nline"\r\nplain,"x"\r\n';
    const whole = parseCsv(text);
    for (const size of [1, 2, 3, 5, 7]) {
      const parser = new CsvParser();
      const rows: string[][] = [];
      for (let i = 0; i < text.length; i += size) rows.push(...parser.push(text.slice(i, i + size)));
      rows.push(...parser.end());
      expect(rows).toEqual(whole);
    }
    expect(whole).toEqual([
      ['h1', 'h2'],
      ['a "q", b', 'multi\r\nline'],
      ['plain', 'x'],
    ]);
  });

  it('maps records onto the header, filling missing cells with empty strings', () => {
    const { header, rows } = parseCsvObjects('a,b\n1\n2,3\n');
    expect(header).toEqual(['a', 'b']);
    expect(rows).toEqual([
      { a: '1', b: '' },
      { a: '2', b: '3' },
    ]);
  });
});
