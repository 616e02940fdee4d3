import { SERVER_SHUTDOWN, type DialectId, type GatewayError, type Usage } from '@rosetta/canonical';
import type { GuardrailRecord } from '@rosetta/guardrails';
import { capCost, costUsd, roundUsd, type TokenPricing } from './usage-cost';
import type { Attribution } from './attribution/attribution';

export { capCost, costUsd, roundUsd, type TokenPricing } from './usage-cost';

/** What a ledger draft is opened with: who asked, in which dialect, when. */
export interface UsageDraftInit {
  requestId: string;
  clientRequestId?: string;
  apiKeyId?: string;
  teamId?: string;
  dialect: DialectId;
  startedAt?: number;
}

/**
 * One request's ledger row, filled in as it goes through typed steps — opened by the data plane,
 * `planned` and `served` by the chat use case, `attempted` by the executor, `reported`,
 * `firstToken` and `cutShort` by the stream relay, `failed` wherever it fails — and `closed` once
 * its row is recorded. The fields are read by `toUsageRow`; nothing else writes them.
 */
export class UsageDraft {
  readonly requestId: string;
  /** The caller's x-request-id: searchable by admins, never the ledger's key. */
  readonly clientRequestId?: string;
  readonly apiKeyId?: string;
  /** The key's team at the time of the request: its spend counts against the team's budget. */
  readonly teamId?: string;
  readonly dialect: DialectId;
  readonly startedAt: number;
  streamed = false;
  requestedModel?: string;
  servedModel?: string;
  provider?: string;
  attempts = 0;
  route?: string;
  usage?: Usage;
  pricing?: TokenPricing;
  ttftMs?: number;
  errorType?: string;
  /** Set when several models answered one request (a cascade): the sum of their costs. */
  costUsd?: number;
  /** The cost its ledger row was recorded with, once it has been: the draft is closed. */
  recordedCostUsd?: number;
  /** The most the request may be charged (its budget hold's cap); the rest is recorded as uncharged. */
  chargeCapUsd?: number;
  /** The prompt's tokens as estimated before the call: the least an abandoned request is charged. */
  promptTokens?: number;
  /** The response cache's part: `hit` (answered from it), `miss` (looked up, or refreshed by no-cache). */
  cache?: 'hit' | 'miss';
  /** A hit: what the call it saved cost. */
  savedUsd?: number;
  /** What the request's guardrails found, in the order they ran (input, then output). */
  guardrails?: GuardrailRecord[];
  /** What its guardrails' own model calls cost: charged with the request. */
  checkCostUsd?: number;
  /** The end user and tags the request was attributed to (decision 0033). */
  attribution?: Attribution;
  /** The model and prices of the attempt that went out last, for a request that never got an answer. */
  private attemptedModel?: string;
  private attemptedPricing?: TokenPricing;

  constructor(init: UsageDraftInit) {
    this.requestId = init.requestId;
    this.clientRequestId = init.clientRequestId;
    this.apiKeyId = init.apiKeyId;
    this.teamId = init.teamId;
    this.dialect = init.dialect;
    this.startedAt = init.startedAt ?? Date.now();
  }

  /** What was asked for, how it was routed, and the prompt's estimated tokens. */
  planned(requestedModel: string, streamed: boolean, route: string | undefined, promptTokens?: number): void {
    this.requestedModel = requestedModel;
    this.streamed = streamed;
    if (route !== undefined) this.route = route;
    if (promptTokens !== undefined) this.promptTokens = promptTokens;
  }

  /** Attempt `count` went out to `provider`, for `model` at `pricing`. */
  attempted(count: number, provider: string, model?: string, pricing?: TokenPricing): void {
    this.attempts = count;
    this.provider = provider;
    this.attemptedModel = model;
    this.attemptedPricing = pricing;
  }

  /** What served the answer, at which prices. */
  served(model: string, provider: string, pricing: TokenPricing | undefined): void {
    this.servedModel = model;
    this.provider = provider;
    if (pricing !== undefined) this.pricing = pricing;
  }

  /** Who the request was for and its tags, before anything can refuse it: every row carries them. */
  attributed(attribution: Attribution): void {
    if (attribution.endUser !== undefined || attribution.tags !== undefined) this.attribution = attribution;
  }

  /** The usage the upstream reported (ignored when it reported none). */
  reported(usage: Usage | undefined): void {
    if (usage !== undefined) this.usage = usage;
  }

  /**
   * Answered from the response cache: the stored answer's usage, no attempt, cost 0, and what the
   * call would have cost as saved.
   */
  cacheHit(model: string, provider: string, usage: Usage | undefined, savedUsd: number): void {
    this.cache = 'hit';
    this.servedModel = model;
    this.provider = provider;
    this.reported(usage);
    this.costUsd = 0;
    this.savedUsd = savedUsd;
  }

  /** Looked up in the response cache and not found: the answer is called for, and stored. */
  cacheMiss(): void {
    this.cache = 'miss';
  }

  /** Verdicts of the request's guardrails (ARCHITECTURE §9): kept on its ledger row. */
  guarded(records: readonly GuardrailRecord[]): void {
    if (records.length === 0) return;
    this.guardrails = this.guardrails ? [...this.guardrails, ...records] : [...records];
  }

  /** A guardrail's model check cost this (its call has no row of its own). */
  checkCalled(usd: number): void {
    if (usd > 0) this.checkCostUsd = roundUsd((this.checkCostUsd ?? 0) + usd);
  }

  /** A cascade so far: the usage and cost of every model it activated, and how many. */
  cascaded(usage: Usage | undefined, costUsd: number, steps: number): void {
    this.reported(usage);
    this.costUsd = costUsd;
    this.attempts = steps;
  }

  /** The first output of a stream (only the first call counts). */
  firstToken(now: number = Date.now()): void {
    this.ttftMs ??= now - this.startedAt;
  }

  /** A stream cut before its usage arrived: the prompt and an estimate of the output relayed. */
  cutShort(promptTokens: number, outputChars: number): void {
    this.usage ??= { inputTokens: promptTokens, outputTokens: Math.ceil(outputChars / 4) };
  }

  /** The request failed with this error type (a later failure names the cause better). */
  failed(type: string): void {
    this.errorType = type;
  }

  /** The request failed with this error: its type, or `server_shutdown` when a forced stop ended it. */
  failedBy(error: Pick<GatewayError, 'type' | 'code'>): void {
    this.failed(error.code === SERVER_SHUTDOWN ? SERVER_SHUTDOWN : error.type);
  }

  /** The client went away first (unless a failure was already named). */
  disconnected(): void {
    this.errorType ??= 'client_disconnected';
  }

  /**
   * The client went away after an upstream call went out and before any usage came back: the
   * provider bills the prompt all the same, so the row charges the estimated prompt at the
   * attempted model's prices (issue 26). A stream cut after its start has charged the prompt and
   * the output relayed already (`cutShort`); a request cut before any call went out costs nothing.
   */
  abandoned(): void {
    if (this.errorType !== 'client_disconnected' || this.attempts === 0 || this.usage !== undefined || this.costUsd !== undefined) return;
    this.usage = { inputTokens: this.promptTokens ?? 0, outputTokens: 0 };
    this.servedModel ??= this.attemptedModel;
    this.pricing ??= this.attemptedPricing;
  }

  /** Its row was recorded at this cost: the draft is closed. */
  closed(costUsd: number): void {
    this.recordedCostUsd = costUsd;
  }
}

export interface UsageRow {
  requestId: string;
  clientRequestId: string | null;
  apiKeyId: string | null;
  teamId: string | null;
  dialect: string;
  requestedModel: string | null;
  servedModel: string | null;
  provider: string | null;
  status: number;
  errorType: string | null;
  inputTokens: number;
  outputTokens: number;
  /** Prompt-cache reads. */
  cachedTokens: number;
  /** Prompt-cache writes. */
  cacheWriteTokens: number;
  reasoningTokens: number;
  costUsd: number;
  cache: 'hit' | 'miss' | null;
  savedUsd: number | null;
  /** The guardrails' verdicts; null when no check found anything. */
  guardrails: GuardrailRecord[] | null;
  /** What the reported usage cost beyond the most one request may settle (its budget hold's cap). */
  unchargedUsd?: number;
  latencyMs: number;
  ttftMs: number | null;
  streamed: boolean;
  attempts: number;
  route: string | null;
  createdAt: Date;
  /** Who the request was for (decision 0033); absent on rows from before attribution (recovered from an older replica). */
  endUser?: string | null;
  tags?: string[] | null;
}

export function toUsageRow(draft: UsageDraft, status: number, now = Date.now()): UsageRow {
  const answered = draft.costUsd ?? costUsd(draft.usage, draft.pricing);
  const cost = capCost(draft.checkCostUsd ? roundUsd(answered + draft.checkCostUsd) : answered, draft.chargeCapUsd);
  const row: UsageRow = {
    requestId: draft.requestId,
    clientRequestId: draft.clientRequestId ?? null,
    teamId: draft.teamId ?? null,
    apiKeyId: draft.apiKeyId ?? null,
    dialect: draft.dialect,
    requestedModel: draft.requestedModel ?? null,
    servedModel: draft.servedModel ?? null,
    provider: draft.provider ?? null,
    status,
    errorType: draft.errorType ?? null,
    inputTokens: draft.usage?.inputTokens ?? 0,
    outputTokens: draft.usage?.outputTokens ?? 0,
    cachedTokens: draft.usage?.cachedInputTokens ?? 0,
    cacheWriteTokens: draft.usage?.cacheCreationInputTokens ?? 0,
    reasoningTokens: draft.usage?.reasoningTokens ?? 0,
    costUsd: cost.charged,
    cache: draft.cache ?? null,
    savedUsd: draft.savedUsd ?? null,
    guardrails: draft.guardrails ?? null,
    latencyMs: Math.max(0, now - draft.startedAt),
    ttftMs: draft.ttftMs ?? null,
    streamed: draft.streamed,
    attempts: draft.attempts,
    route: draft.route ?? null,
    createdAt: new Date(draft.startedAt),
  };
  if (cost.uncharged !== undefined) row.unchargedUsd = cost.uncharged;
  if (draft.attribution) {
    row.endUser = draft.attribution.endUser ?? null;
    row.tags = draft.attribution.tags ?? null;
  }
  return row;
}
