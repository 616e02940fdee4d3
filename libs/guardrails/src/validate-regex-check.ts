import { runsAt, type RegexCheck } from './guardrail-check';
import { REGEX_KIND } from './guardrail-kinds';
import { type PolicyIssues } from './policy-issues';
import { compileRegexes } from './regex/compile-regex';
import { parseRegex } from './regex/regex-parser';
import { maxMatchLength } from './regex/regex-ast';

/**
 * Compiles a regex check's patterns as the engine will, so every refusal is reported at policy
 * time with the pattern's path. A check on output must have a bounded longest match: streamed
 * output is held back by that length (decision 0029).
 */
export function validateRegexCheck(issues: PolicyIssues, path: string, check: RegexCheck): void {
  const compiled = compileRegexes(regexSources(check), check.ignoreCase);
  if ('error' in compiled) {
    const { message, index, pattern } = compiled.error;
    issues.add(`${path}.patterns[${pattern}]`, index > 0 ? `${message} (at character ${index})` : message);
    return;
  }
  if (!runsAt(check.on, 'output')) return;
  check.patterns.forEach((entry, i) => {
    const parsed = parseRegex(entry.pattern);
    if ('node' in parsed && maxMatchLength(parsed.node) === Infinity) {
      issues.add(`${path}.patterns[${i}]`, 'an output check needs a bounded match length: use {m,n} instead of *, + or {m,}');
    }
  });
}

export function regexSources(check: RegexCheck): Array<{ pattern: string; kind: string }> {
  return check.patterns.map((p) => ({ pattern: p.pattern, kind: p.name ?? REGEX_KIND }));
}
