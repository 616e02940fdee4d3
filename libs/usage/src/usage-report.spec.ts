import { csvCell, reportColumns, usageCsv, usageTotals, type UsageReportRow } from './usage-report';

const metrics = { requests: 3, errors: 1, input_tokens: 120, output_tokens: 40, cached_tokens: 0, reasoning_tokens: 0, cache_hits: 1, saved_usd: '0.5' };

describe('usage report CSV', () => {
  it('writes a header row, the dimensions asked for in order, then the totals, with CRLF line ends', () => {
    const rows: UsageReportRow[] = [
      { day: '2026-11-24', api_key_id: 'k1', key_name: 'ci', ...metrics, cost_usd: '0.000027' },
      { day: '2026-11-24', api_key_id: null, key_name: null, ...metrics, requests: 1, cost_usd: '0' },
    ];
    expect(usageCsv(['day', 'key'], rows)).toBe(
      'day,api_key_id,key_name,requests,errors,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost_usd,cache_hits,saved_usd\r\n' +
        '2026-11-24,k1,ci,3,1,120,40,0,0,0.000027,1,0.5\r\n' +
        '2026-11-24,,,1,1,120,40,0,0,0,1,0.5\r\n',
    );
  });

  it('is only a header when there is nothing to report', () => {
    expect(usageCsv(['team'], [])).toBe('team_id,team_name,requests,errors,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost_usd,cache_hits,saved_usd\r\n');
  });

  it('quotes names holding commas, quotes or line breaks, and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Acme, Inc.')).toBe('"Acme, Inc."');
    expect(csvCell('the "batch" key')).toBe('"the ""batch"" key"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-team')).toBe("'-team");
    expect(csvCell('@sum')).toBe("'@sum");
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('never writes a cost in exponent form', () => {
    const csv = usageCsv(['model'], [{ served_model: 'rosetta/gpt-4o-mini', ...metrics, cost_usd: '0.000000001' }]);
    expect(csv).toContain(',0.000000001,1,0.5\r\n');
    expect(csv).not.toMatch(/e-\d/);
  });

  it('orders columns by the dimensions asked for', () => {
    expect(reportColumns(['model', 'day'])).toEqual(['served_model', 'day', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'cache_hits', 'saved_usd']);
  });
});

describe('usage totals', () => {
  it('adds costs exactly, in nano-dollars, and tokens as integers', () => {
    const rows: UsageReportRow[] = Array.from({ length: 10 }, () => ({ ...metrics, cost_usd: '0.1' }));
    expect(usageTotals(rows)).toEqual({ requests: 30, errors: 10, input_tokens: 1200, output_tokens: 400, cached_tokens: 0, reasoning_tokens: 0, cost_usd: '1', cache_hits: 10, saved_usd: '5' });
    expect(usageTotals([{ ...metrics, cost_usd: '0.000000001' }, { ...metrics, cost_usd: '0.000027' }]).cost_usd).toBe('0.000027001');
    expect(usageTotals([]).cost_usd).toBe('0');
  });
});
