import { ReloadingTable } from './reloading-table';

/** A load the test finishes by hand, so reloads can overlap on purpose. */
function loads() {
  const pending: Array<{ resolve(rows: string[]): void; reject(error: Error): void }> = [];
  const load = () => new Promise<string[]>((resolve, reject) => pending.push({ resolve, reject }));
  return { pending, table: new ReloadingTable(load, (row: string) => row.split('=')[0]!) };
}

describe('ReloadingTable', () => {
  it('coalesces a change announced mid-reload into exactly one more reload, which wins', async () => {
    const { pending, table } = loads();
    const first = table.reload();
    const second = table.reload(); // announced while the first is in flight: it may read old rows
    expect(second).toBe(first);
    expect(pending).toHaveLength(1);
    pending[0]!.resolve(['a=old']);
    await first;
    expect(table.get('a')).toBe('a=old');
    expect(pending).toHaveLength(2); // the one catch-up reload, not one per announcement
    pending[1]!.resolve(['a=new', 'b=1']);
    await new Promise((resolve) => setImmediate(resolve)); // let the catch-up reload's callbacks run
    expect(pending).toHaveLength(2);
    expect(table.get('a')).toBe('a=new');
    expect(table.values()).toEqual(['a=new', 'b=1']);
  });

  it('keeps the rows it had when a reload fails', async () => {
    const { pending, table } = loads();
    const ok = table.reload();
    pending[0]!.resolve(['a=1']);
    await ok;
    const failed = table.reload();
    pending[1]!.reject(new Error('database down'));
    await failed;
    expect(table.get('a')).toBe('a=1');
  });
});
