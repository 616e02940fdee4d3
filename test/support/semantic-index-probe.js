// Runs the compiled SemanticIndexService on an embedded PGlite in its own process (Jest cannot
// load PGlite's WebAssembly in-process) and prints what it found as one JSON line.
require('reflect-metadata');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createDataSource } = require('../../dist/libs/persistence/src');
const { SemanticIndexService } = require('../../dist/libs/cache/src');

const unit = (...values) => {
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
};

(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rosetta-vectors-'));
  const db = createDataSource({ dataDir: dir, entities: [] });
  await db.initialize();
  const index = new SemanticIndexService(db, { warn: () => undefined });
  await index.onModuleInit();
  const out = { supported: index.supported };
  await index.add('team:a', 'ctx', unit(1, 0, 0), 'paris', 60);
  await index.add('team:a', 'ctx', unit(0, 1, 0), 'madrid', 60);
  await index.add('team:b', 'ctx', unit(1, 0.01, 0), 'other-team', 60);
  await index.add('team:a', 'other', unit(1, 0, 0.01), 'other-context', 60);
  out.near = await index.nearest('team:a', 'ctx', unit(0.95, 0.05, 0));
  out.otherScope = (await index.nearest('team:c', 'ctx', unit(1, 0, 0))) ?? null;
  await db.query('SET enable_seqscan = off');
  const plan = await db.query(`EXPLAIN SELECT cache_key FROM response_cache_vectors_3 ORDER BY embedding <=> '[1,0,0]'::vector LIMIT 1`);
  out.plan = plan.map((row) => row['QUERY PLAN']).join('\n');
  await index.add('team:x', 'ctx', unit(0, 0, 1), 'gone', 60);
  await db.query(`UPDATE response_cache_vectors_3 SET expires_at = now() - interval '1 second' WHERE cache_key = 'gone'`);
  out.expired = (await index.nearest('team:x', 'ctx', unit(0, 0, 1))) ?? null;
  index.onModuleDestroy();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(out)}\n`);
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
