/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF or LF (a lone CR too), fields may be
 * quoted with `"` and then contain commas, line breaks and doubled quotes (`""` → `"`).
 * `CsvParser` is incremental: feed it chunks of any size (a chunk may end inside a quoted field
 * or between the CR and LF of a line break) and it returns the records completed so far.
 * Lenient where the RFC is silent: a quote inside an unquoted field is kept literally, and text
 * after a closing quote is appended to the field.
 */
export class CsvParser {
  private field = '';
  private record: string[] = [];
  private inQuotes = false;
  /** The previous chunk ended on a quote inside a quoted field: closing or the first of `""`. */
  private pendingQuote = false;
  /** The previous chunk ended on a CR: an LF at the start of the next one belongs to it. */
  private pendingCr = false;
  /** The current record has content (so a blank line yields no record). */
  private dirty = false;
  /** The current field opened with a quote. */
  private fieldQuoted = false;

  push(chunk: string): string[][] {
    const out: string[][] = [];
    let i = 0;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (chunk.startsWith('\n')) i = 1;
    }
    for (; i < chunk.length; i++) {
      const c = chunk[i] as string;
      if (this.pendingQuote) {
        this.pendingQuote = false;
        if (c === '"') {
          this.field += '"';
          continue;
        }
        this.inQuotes = false;
      }
      if (this.inQuotes) {
        const close = chunk.indexOf('"', i);
        if (close === -1) {
          this.field += chunk.slice(i);
          break;
        }
        this.field += chunk.slice(i, close);
        i = close;
        this.pendingQuote = true;
        continue;
      }
      i = this.plain(chunk, i, out);
    }
    return out;
  }

  /** Ends the input: returns the last record if the text did not end with a line break. */
  end(): string[][] {
    this.pendingQuote = false;
    this.inQuotes = false;
    this.pendingCr = false;
    if (!this.dirty && this.field === '' && this.record.length === 0) return [];
    return [this.finishRecord()];
  }

  /** Handles one character outside quotes; returns the index of the last character consumed. */
  private plain(chunk: string, i: number, out: string[][]): number {
    const c = chunk[i] as string;
    if (c === '"' && this.field === '' && !this.fieldQuoted) {
      this.inQuotes = true;
      this.dirty = true;
      this.fieldQuoted = true;
      return i;
    }
    if (c === ',') {
      this.record.push(this.field);
      this.field = '';
      this.fieldQuoted = false;
      this.dirty = true;
      return i;
    }
    if (c === '\r' || c === '\n') {
      if (c === '\r') {
        if (i + 1 < chunk.length) {
          if (chunk[i + 1] === '\n') i++;
        } else this.pendingCr = true;
      }
      if (this.dirty || this.field !== '') out.push(this.finishRecord());
      return i;
    }
    let j = i;
    while (j < chunk.length && chunk[j] !== ',' && chunk[j] !== '\r' && chunk[j] !== '\n') j++;
    this.field += chunk.slice(i, j);
    this.dirty = true;
    return j - 1;
  }

  private finishRecord(): string[] {
    this.record.push(this.field);
    const rec = this.record;
    this.record = [];
    this.field = '';
    this.fieldQuoted = false;
    this.dirty = false;
    return rec;
  }
}

/** Parses a whole CSV text into records (arrays of fields). */
export function parseCsv(text: string): string[][] {
  const parser = new CsvParser();
  const rows = parser.push(text);
  for (const r of parser.end()) rows.push(r);
  return rows;
}

/** Parses a CSV with a header line into objects keyed by column name (missing cells → ''). */
export function parseCsvObjects(text: string): { header: string[]; rows: Record<string, string>[] } {
  const records = parseCsv(text);
  const header = records[0] ?? [];
  const rows = records.slice(1).map((rec) => {
    const obj: Record<string, string> = {};
    header.forEach((name, idx) => {
      obj[name] = rec[idx] ?? '';
    });
    return obj;
  });
  return { header, rows };
}
