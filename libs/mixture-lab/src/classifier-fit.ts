/**
 * The offline half of the category classifier: reading MT-Bench's questions as training texts and
 * measuring a fit by leave-one-out accuracy (how α and the keyword weight were chosen). The fit
 * itself stays in @rosetta/mixture, whose signals need a keyword-only classifier at run time.
 */
import { readFileSync } from 'node:fs';
import { type LabelledText, classifyCategory, fitCategoryClassifier } from '@rosetta/mixture';

/** MT-Bench `question.jsonl`: `turns[0]` labelled with `category`. */
export function loadMtBench(path: string): LabelledText[] {
  const out: LabelledText[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const q = JSON.parse(line) as { category?: unknown; turns?: unknown };
    const turns = Array.isArray(q.turns) ? q.turns : [];
    if (typeof q.category === 'string' && typeof turns[0] === 'string') out.push({ text: turns[0], category: q.category });
  }
  return out;
}

/** Leave-one-out accuracy of the classifier on labelled texts. */
export function leaveOneOutAccuracy(docs: LabelledText[]): number {
  let correct = 0;
  docs.forEach((d, i) => {
    const params = fitCategoryClassifier(docs.filter((_, j) => j !== i));
    if (classifyCategory(params, d.text).category === d.category) correct++;
  });
  return docs.length === 0 ? 0 : correct / docs.length;
}
