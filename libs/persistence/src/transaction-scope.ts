import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

interface Scope {
  manager: EntityManager;
  afterCommit: Array<() => Promise<void>>;
  onRollback: Array<() => Promise<void>>;
}

/**
 * One transaction around a unit of work (an admin change and its audit row) without passing a
 * manager through every service: repositories ask `managerOf` for the ambient one. Work that must
 * only happen once the change is visible to others (telling replicas to reload) waits in
 * `afterCommit`, and is dropped with the change when it rolls back.
 */
const scope = new AsyncLocalStorage<Scope>();

/** The manager of the transaction this call runs in, else the data source's own. */
export function managerOf(dataSource: DataSource): EntityManager {
  return scope.getStore()?.manager ?? dataSource.manager;
}

/** Runs `work` in one transaction (joining the enclosing one, if any), then the after-commit work. */
export async function inTransaction<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  if (scope.getStore()) return work();
  const afterCommit: Scope['afterCommit'] = [];
  const onRollback: Scope['onRollback'] = [];
  let result: T;
  try {
    result = await dataSource.transaction((manager) => scope.run({ manager, afterCommit, onRollback }, work));
  } catch (error) {
    // Put back what read the uncommitted change (an in-memory table); the refusal is what the caller sees.
    for (const task of onRollback) await task().catch(() => undefined);
    throw error;
  }
  for (const task of afterCommit) await task();
  return result;
}

/** `task` once the enclosing transaction committed (never, if it rolls back); now outside one. */
export async function afterCommit(task: () => Promise<void>): Promise<void> {
  const current = scope.getStore();
  if (current) current.afterCommit.push(task);
  else await task();
}

/**
 * `task` if the enclosing transaction rolls back: for a cache that reloaded inside it (to answer
 * with the change) and must forget the change again. Nothing outside a transaction.
 */
export function onRollback(task: () => Promise<void>): void {
  scope.getStore()?.onRollback.push(task);
}
