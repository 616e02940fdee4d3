/**
 * Ids this replica has raised lately, bounded (oldest forgotten first): a hot budget refused a
 * thousand times a second raises its 100 % event once here, not a thousand inserts. Forgetting is
 * safe: the outbox keeps one event per id whatever is raised again.
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  /** True the first time `id` is seen (and remembered), false while it is remembered. */
  first(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
    return true;
  }
}
