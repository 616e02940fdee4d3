// The compiled ledger (migrations, maintenance, usage report) on an embedded PGlite in its own
// process (Jest cannot load PGlite's WebAssembly in-process), driven by one JSON request per line
// on stdin — {id, op: "query" | "report" | "page" | "run" | "close", ...} — and answering one per line.
// `report` and `page` take `attribution: true` for a report by end user or tag.
require('reflect-metadata');
const readline = require('node:readline');
const { createDataSource, migrate } = require('../../dist/libs/persistence/src');
const { AttributionReportRepository, LedgerHoursRepository, LedgerMaintenanceService, LedgerPartitionsRepository, LedgerRollupRepository, UsageReportRepository } = require('../../dist/libs/usage/src');

(async () => {
  const db = createDataSource({ dataDir: process.argv[2], entities: [] });
  await db.initialize();
  await migrate(db);
  const rollups = new LedgerRollupRepository(db);
  const hourly = new LedgerHoursRepository(db);
  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined };
  const maintenance = new LedgerMaintenanceService(new LedgerPartitionsRepository(db), rollups, hourly, {}, silent);
  const reports = new UsageReportRepository(db, rollups, hourly);
  const attribution = new AttributionReportRepository(db, rollups);
  const filter = (m) => ({ ...m.filter, from: new Date(m.filter.from), to: new Date(m.filter.to) });
  const ops = {
    query: (m) => db.query(m.sql, m.params),
    report: (m) => (m.attribution ? attribution : reports).report(filter(m)),
    page: (m) => (m.attribution ? attribution : reports).page(filter(m), m.page),
    run: (m) => maintenance.run(new Date(m.now)),
    close: () => db.destroy(),
  };
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const message = JSON.parse(line);
    try {
      const result = await ops[message.op](message);
      process.stdout.write(`${JSON.stringify({ id: message.id, result: result ?? null })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ id: message.id, error: error.message })}\n`);
    }
    if (message.op === 'close') process.exit(0);
  }
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
