export * from './guardrail-check';
export * from './guardrail-kinds';
export * from './guardrail-policy';
export * from './guardrail-policy-limits';
export { describeIssue, type GuardrailPolicyIssue } from './policy-issues';
export * from './finding';
export * from './compile-guardrails';
export * from './guardrail-engine';
export * from './redact-spans';
