import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The semantic cache's vector index on the embedded database's bundled pgvector (CI's PostgreSQL
 * 15 has none): the compiled service, in a process of its own, on a real PGlite.
 */
describe('semantic index on PGlite', () => {
  it('finds the nearest question within its scope and context, through an HNSW index, never an expired one', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, 'support', 'semantic-index-probe.js')]);
    const found = JSON.parse(stdout.trim());
    expect(found.supported).toBe(true);
    expect(found.near.cacheKey).toBe('paris');
    expect(found.near.similarity).toBeGreaterThan(0.99);
    expect(found.otherScope).toBeNull();
    expect(found.plan).toContain('response_cache_vectors_3_hnsw');
    expect(found.expired).toBeNull();
  });
});
