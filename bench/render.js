#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Re-renders results.md and chart.svg (and the target verdicts) from an existing results.json,
// without measuring again: `node bench/render.js [dir]` (default docs/benchmarks).
const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const report = require('./lib/report');

const dir = process.argv[2] || join(__dirname, '..', 'docs', 'benchmarks');
const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
results.targets = report.evaluateTargets(results);
writeFileSync(join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(dir, 'results.md'), report.markdown(results, { readme: relative(dir, join(__dirname, '..', 'docs', 'benchmarks', 'README.md')) }));
writeFileSync(join(dir, 'chart.svg'), report.chart(results));
process.stdout.write(`${report.tables(results)}\n`);
