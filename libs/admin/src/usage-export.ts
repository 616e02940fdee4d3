import { reportOrder, type GroupKey, type ReportDimension, type ReportPageResult } from '@rosetta/usage';

const DAY_MS = 86_400_000;

/** Reads a page of the report over [from, to): at most `limit` groups after `after`. */
export type ReadPage = (window: { from: Date; to: Date }, limit: number, after: GroupKey | undefined) => Promise<ReportPageResult>;

/**
 * Every page of a report for the CSV export (decision 0034), newest first. A report led by the day
 * or the hour is read a window of whole UTC days at a time, newest first, each window in keyset
 * pages: a group belongs to one day, so the windows' pages put together are the whole report, and
 * a page never reads ahead into days the window does not hold (a page of the whole range reads up
 * to `limit` groups from each rollup part, most of which the page then leaves to the next one).
 * A window that ends short of a page doubles the next one, so a sparse year takes a few dozen
 * reads, not one per day. A report in another order has groups that span days: it is read as
 * keyset pages over the whole range.
 */
export async function* exportPages(groupBy: readonly ReportDimension[], range: { from: Date; to: Date }, limit: number, read: ReadPage): AsyncGenerator<ReportPageResult> {
  const leader = reportOrder(groupBy)[0];
  if (leader !== 'day' && leader !== 'hour') {
    yield* keysetPages(range, limit, read);
    return;
  }
  let days = 1;
  for (let end = range.to; end > range.from; ) {
    const midnight = Math.ceil(end.getTime() / DAY_MS) * DAY_MS - DAY_MS; // the last day's start
    const from = new Date(Math.max(range.from.getTime(), midnight - (days - 1) * DAY_MS));
    let groups = 0;
    for await (const page of keysetPages({ from, to: end }, limit, read)) {
      groups += page.data.length;
      yield page;
    }
    days = groups < limit ? days * 2 : 1;
    end = from;
  }
}

async function* keysetPages(window: { from: Date; to: Date }, limit: number, read: ReadPage): AsyncGenerator<ReportPageResult> {
  let after: GroupKey | undefined;
  do {
    const page = await read(window, limit, after);
    yield page;
    after = page.next ?? undefined;
  } while (after);
}
