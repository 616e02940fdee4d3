/**
 * RouterBench-shaped CSV files (a `prompt` column, then per model a score column `m`,
 * `m|total_cost` and `m|model_response`) as labelled rows. Cells hold long prompts and responses
 * with commas, quotes and line breaks, so the CSV itself is read by csv-parse.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { LabelledRow } from '@rosetta/mixture';
import { type Options, parse } from 'csv-parse/sync';
import { decodePromptLiteral } from './python-literal';

const COST_SUFFIX = '|total_cost';
const RESPONSE_SUFFIX = '|model_response';

/**
 * The models of a RouterBench-shaped header: every column `m` that also has `m|total_cost`.
 * Any names work (`gpt-4-1106-preview`, `rosetta/gpt-4o-mini`, ...).
 */
export function modelsOfHeader(header: string[]): string[] {
  const names = new Set(header);
  return header.filter((h) => !h.includes('|') && names.has(h + COST_SUFFIX));
}

function parseScore(cell: string | undefined): 0 | 1 | null {
  if (cell === undefined) return null;
  const t = cell.trim();
  if (t === '') return null;
  const v = Number(t);
  if (!Number.isFinite(v)) return null;
  return v >= 0.5 ? 1 : 0;
}

/** Turns one CSV record into a row; null when a score is missing (those rows are skipped). */
export function rowFromRecord(record: string[], index: Map<string, number>, models: string[], fallbackTask: string): LabelledRow | null {
  const get = (col: string): string | undefined => {
    const i = index.get(col);
    return i === undefined ? undefined : record[i];
  };
  const scores: Record<string, 0 | 1> = {};
  const costs: Record<string, number> = {};
  const responses: Record<string, string> = {};
  for (const m of models) {
    const s = parseScore(get(m));
    if (s === null) return null;
    scores[m] = s;
    const cost = Number(get(m + COST_SUFFIX) ?? '');
    costs[m] = Number.isFinite(cost) && cost >= 0 ? cost : 0;
    responses[m] = decodePromptLiteral(get(m + RESPONSE_SUFFIX) ?? '');
  }
  const task = (get('eval_name') ?? '').trim() || fallbackTask;
  return { prompt: decodePromptLiteral(get('prompt') ?? ''), task, scores, costs, responses };
}

/**
 * RFC 4180, read leniently where files in the wild differ: any of CRLF, LF or CR ends a record
 * (even mixed in one file), blank lines are skipped, a short record keeps its missing cells
 * undefined (the row is then skipped for a missing score), a quote inside an unquoted field is
 * kept as text, and a byte-order mark is dropped.
 */
const CSV_OPTIONS: Options = {
  bom: true,
  record_delimiter: ['\r\n', '\n', '\r'],
  skip_empty_lines: true,
  relax_column_count: true,
  relax_quotes: true,
};

/** CSV text as records; `source` names the file in a parse error. */
function csvRecords(text: string, source: string): string[][] {
  try {
    return parse(text, CSV_OPTIONS);
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
}

/** Parses RouterBench-shaped CSV text. `fallbackTask` labels rows of a file without `eval_name`. */
export function parseRouterBench(text: string, fallbackTask = 'default'): LabelledRow[] {
  return recordsToRows(csvRecords(text, 'routerbench csv'), fallbackTask);
}

function recordsToRows(records: string[][], fallbackTask: string): LabelledRow[] {
  const header = records[0] ?? [];
  if (!header.includes('prompt')) throw new Error('routerbench csv: no "prompt" column');
  const models = modelsOfHeader(header);
  if (models.length === 0) throw new Error('routerbench csv: no model has both a score and a "|total_cost" column');
  const index = new Map(header.map((h, i) => [h, i] as const));
  const rows: LabelledRow[] = [];
  for (const rec of records.slice(1)) {
    const row = rowFromRecord(rec, index, models, fallbackTask);
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * Reads one or more RouterBench-shaped CSV files. Rows of all files are concatenated; the model
 * set of each row is the set of its own file (files may differ; evaluation uses the models every
 * row has).
 */
export function loadRouterBench(paths: string[]): LabelledRow[] {
  const rows: LabelledRow[] = [];
  for (const path of paths) {
    const task = basename(path).replace(/\.csv$/i, '').replace(/_(train|test|val)$/i, '');
    rows.push(...recordsToRows(csvRecords(readFileSync(path, 'utf8'), path), task));
  }
  return rows;
}

/** The models every row has a score for, in first-seen order. */
export function commonModels(rows: LabelledRow[]): string[] {
  const first = rows[0];
  if (!first) return [];
  return Object.keys(first.scores).filter((m) => rows.every((r) => m in r.scores));
}
