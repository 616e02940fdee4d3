'use strict';
// What every part of the report shares: the target names, number formatting, a markdown table.

const TARGET_NAMES = ['direct', 'floor', 'rosetta', 'rosetta-baseline', 'portkey'];
const GATEWAYS = ['floor', 'rosetta', 'rosetta-baseline', 'portkey'];
const BASELINE = 'rosetta-baseline';

function byName(points) {
  return Object.fromEntries((points || []).filter(Boolean).map((p) => [p.target, p]));
}

function f(value, digits = 1) {
  return value === null || value === undefined || Number.isNaN(value) ? '–' : Number(value).toFixed(digits);
}

function signed(value, digits = 2) {
  if (value === null || value === undefined) return '–';
  const text = Number(value).toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

function verdict(met) {
  if (met === true) return '**met**';
  if (met === false) return '**not met**';
  return 'not measured';
}

// ---------------------------------------------------------------- tables

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((h, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

module.exports = { TARGET_NAMES, GATEWAYS, BASELINE, byName, f, signed, verdict, table };
