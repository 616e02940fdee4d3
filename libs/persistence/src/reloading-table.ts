/**
 * A small table held whole in memory (plans, teams: a handful to tens of rows), read by the hot
 * path without a query and reloaded when any replica says it changed. Reloads coalesce: a change
 * announced while one is in flight (which may have read the old row) triggers one more after it.
 * A failed reload keeps the rows it had.
 */
export class ReloadingTable<K, V> {
  private rows = new Map<K, V>();
  private reloading?: Promise<void>;
  private stale = false;

  constructor(
    private readonly load: () => Promise<V[]>,
    private readonly keyOf: (row: V) => K,
  ) {}

  get(key: K): V | undefined {
    return this.rows.get(key);
  }

  values(): V[] {
    return [...this.rows.values()];
  }

  reload(): Promise<void> {
    if (this.reloading) {
      this.stale = true;
      return this.reloading;
    }
    this.reloading = this.load()
      .then((rows) => {
        this.rows = new Map(rows.map((row) => [this.keyOf(row), row]));
      })
      .catch(() => undefined)
      .finally(() => {
        this.reloading = undefined;
        if (this.stale) {
          this.stale = false;
          void this.reload();
        }
      });
    return this.reloading;
  }
}
