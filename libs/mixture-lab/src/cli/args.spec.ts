import { type OptionSpec, flag, flagList, has, parseArgs } from './args';

const OPTIONS: Record<string, OptionSpec> = {
  train: { type: 'string', list: true },
  test: { type: 'string', list: true },
  out: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};
const USAGE = 'usage: tool -- …';
const parse = (argv: string[]) => parseArgs(argv, OPTIONS, USAGE);

describe('router CLI arguments', () => {
  it('gives a list option every plain argument up to the next option', () => {
    const args = parse(['--train', 'a.csv', 'b.csv', '--json', 'c.csv', '--test', 'd.csv', 'e.csv']);
    expect(flagList(args, 'train')).toEqual(['a.csv', 'b.csv']);
    expect(flagList(args, 'test')).toEqual(['d.csv', 'e.csv']);
    expect(args.positional).toEqual(['c.csv']);
    expect(has(args, 'json')).toBe(true);
  });

  it('takes one value for a single option and for a list given inline', () => {
    const args = parse(['--out', 'x.json', 'a.csv', '--train=b.csv', 'c.csv', '-h']);
    expect(flag(args, 'out')).toBe('x.json');
    expect(flagList(args, 'train')).toEqual(['b.csv']);
    expect(args.positional).toEqual(['a.csv', 'c.csv']);
    expect(has(args, 'help')).toBe(true);
    expect(has(args, 'test')).toBe(false);
  });

  it('ends a list at --', () => {
    const args = parse(['--train', 'a.csv', '--', '--not-an-option']);
    expect(flagList(args, 'train')).toEqual(['a.csv']);
    expect(args.positional).toEqual(['--not-an-option']);
  });

  it('refuses unknown options and missing values, with the usage', () => {
    expect(() => parse(['--trian', 'a.csv'])).toThrow(`Unknown option '--trian'\n${USAGE}`);
    expect(() => parse(['--out'])).toThrow(/^Option '--out <value>' argument missing\n/);
  });
});
