#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The guardrail checks engine on its own (issue 31's bar: built-in checks add <= 0.1 ms p50 to a
// 2 KB prompt): one scan of a 2 KB prompt with every PII and secrets check on, timed call by call
// on the built library (npm run build first). Also each detector alone (where the time goes) and a
// streamed answer of the same size in 4-character chunks through the output redactor.
// Usage: node bench/guardrails-scan.js [root]. Prints JSON.
const { join } = require('node:path');

const root = process.argv[2] || join(__dirname, '..');
const guardrails = require(join(root, 'dist', 'libs', 'guardrails', 'src'));
const CALLS = 20_000;
const ROUNDS = 7;
const WARM_UP = 20_000;

/** A 2 KB agent prompt: prose, a little code, numbers that are not PII, and one email and one phone. */
function prompt() {
  const parts = [
    'You are a support assistant for Acme Corp. Answer briefly and cite the order number when you refer to an order. ',
    'Customer history: order 48213 shipped on 2026-10-04 (3 items, total 129.90 EUR); order 48377 returned on 2026-10-21. ',
    'The customer writes: "Hi, I was charged twice for order 48377 and the refund of 59.95 has not arrived after 14 days. ',
    'My account email is maria.rossi@example.it and you can call me on +39 06 6982 1234 in the afternoon. ',
    'I tried the app (version 5.12.3) and the website, both say the refund is pending. Can you check what happened?" ',
    'Internal notes: ticket CS-20931 opened by agent 117, escalated to billing at 10:42, SLA 48h. ',
    'Relevant policy: refunds are issued within 10 business days of receiving the returned goods; duplicate charges ',
    'are reversed by the payment provider within 3-5 days. Snippet from the billing log follows.\n',
    '```\n2026-10-21T09:14:03Z refund_requested order=48377 amount=59.95 currency=EUR status=pending\n',
    '2026-10-21T09:14:04Z charge_duplicate_detected order=48377 ref=ch_3PqR7sT2 amount=59.95\n```\n',
  ];
  let text = parts.join('');
  const filler = 'The assistant should stay polite, avoid speculation about internal systems, and offer next steps. ';
  while (text.length < 2048) text += filler;
  return text.slice(0, 2048);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Per-call times in microseconds over ROUNDS x CALLS calls, after a warm-up. */
function time(call, rounds = ROUNDS) {
  for (let i = 0; i < WARM_UP; i += 1) call();
  const times = new Float64Array(rounds * CALLS);
  let n = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < CALLS; i += 1) {
      const start = process.hrtime.bigint();
      call();
      times[n++] = Number(process.hrtime.bigint() - start) / 1000;
    }
  }
  const sorted = Array.from(times).sort((a, b) => a - b);
  return { p50: round2(percentile(sorted, 0.5)), p90: round2(percentile(sorted, 0.9)), p99: round2(percentile(sorted, 0.99)) };
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

function compile(policy) {
  const parsed = guardrails.parseGuardrailPolicy(policy);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return guardrails.compileGuardrails(parsed.checks);
}

function main() {
  const text = prompt();
  const all = compile([
    { check: 'pii', on: 'both', action: 'redact' },
    { check: 'secrets', on: 'both', action: 'block' },
  ]);
  const result = { promptChars: text.length, calls: ROUNDS * CALLS, node: process.version };
  result.scanAllBuiltIn = time(() => guardrails.scanGuardrails(text, all, 'input'));
  result.verdicts = guardrails.scanGuardrails(text, all, 'input').verdicts;
  result.byCheck = {};
  for (const kind of guardrails.PII_KINDS) {
    const policy = compile([{ check: 'pii', on: 'input', action: 'log', kinds: [kind] }]);
    result.byCheck[kind] = time(() => guardrails.scanGuardrails(text, policy, 'input'), 2).p50;
  }
  for (const kind of ['openai_key', 'aws_secret_key', 'private_key', 'bearer_token', 'jwt']) {
    const policy = compile([{ check: 'secrets', on: 'input', action: 'log', kinds: [kind] }]);
    result.byCheck[kind === 'openai_key' ? 'prefixed_keys' : kind] = time(() => guardrails.scanGuardrails(text, policy, 'input'), 2).p50;
  }
  const regex = compile([{ check: 'regex', on: 'input', action: 'log', patterns: ['\\bproject[- ]?(alpha|beta|gamma)\\b', 'CS-\\d{5}', 'internal[- ]only'], ignore_case: true }]);
  result.regexThreePatterns = time(() => guardrails.scanGuardrails(text, regex, 'input'), 2).p50;
  const chunks = text.match(/[\s\S]{1,4}/g);
  result.streamed2kIn4CharChunks = time(() => {
    const redactor = new guardrails.StreamingRedactor(all);
    for (const chunk of chunks) redactor.push(chunk);
    redactor.flush();
  }, 2).p50;
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main();
