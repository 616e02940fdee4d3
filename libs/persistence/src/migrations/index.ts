import { InitialSchema1732200000000 } from './1732200000000-initial-schema';
import { Registry1732300000000 } from './1732300000000-registry';
import { RequestLog1732400000000 } from './1732400000000-request-log';
import { KeyRouteKnob1732500000000 } from './1732500000000-key-route-knob';
import { ClientRequestId1732600000000 } from './1732600000000-client-request-id';
import { TeamsBudgets1732800000000 } from './1732800000000-teams-budgets';
import { LedgerCoveringIndexes1732860000000 } from './1732860000000-ledger-covering-indexes';
import { ProviderProtocolOpen1732900000000 } from './1732900000000-provider-protocol-open';
import { EmbeddingModels1732950000000 } from './1732950000000-embedding-models';
import { StoredAnswers1733000000000 } from './1733000000000-stored-answers';
import { DashboardSessionsAudit1733100000000 } from './1733100000000-dashboard-sessions-audit';
import { StoredAnswersJson1733200000000 } from './1733200000000-stored-answers-json';
import { StoredAnswersChain1733250000000 } from './1733250000000-stored-answers-chain';
import { ModelRouterPrior1733300000000 } from './1733300000000-model-router-prior';
import { LedgerListIndexes1733400000000 } from './1733400000000-ledger-list-indexes';
import { AdminSessionTokenBinding1733460000000 } from './1733460000000-admin-session-token-binding';
import { LedgerSetAside1733510000000 } from './1733510000000-ledger-set-aside';
import { ProviderPlatform1733520000000 } from './1733520000000-provider-platform';
import { ResponseCache1733600000000 } from './1733600000000-response-cache';
import { LedgerPartitions1733700000000 } from './1733700000000-ledger-partitions';
import { LedgerDailyRollup1733710000000 } from './1733710000000-ledger-daily-rollup';
import { Guardrails1733800000000 } from './1733800000000-guardrails';
import { Attribution1733810000000 } from './1733810000000-attribution';
import { AlertWebhooks1733820000000 } from './1733820000000-alert-webhooks';
import { LedgerHourlyRollup1733830000000 } from './1733830000000-ledger-hourly-rollup';
import { UsageReportPaging1733840000000 } from './1733840000000-usage-report-paging';

/** Every migration, oldest first. The embedded database runs the very same list. */
export const MIGRATIONS = [
  InitialSchema1732200000000, Registry1732300000000, RequestLog1732400000000, KeyRouteKnob1732500000000, ClientRequestId1732600000000, TeamsBudgets1732800000000,
  LedgerCoveringIndexes1732860000000, ProviderProtocolOpen1732900000000, EmbeddingModels1732950000000, StoredAnswers1733000000000, DashboardSessionsAudit1733100000000,
  StoredAnswersJson1733200000000, StoredAnswersChain1733250000000, ModelRouterPrior1733300000000, LedgerListIndexes1733400000000,
  AdminSessionTokenBinding1733460000000, LedgerSetAside1733510000000, ProviderPlatform1733520000000,
  ResponseCache1733600000000, LedgerPartitions1733700000000, LedgerDailyRollup1733710000000,
  Guardrails1733800000000,
  Attribution1733810000000,
  AlertWebhooks1733820000000,
  LedgerHourlyRollup1733830000000,
  UsageReportPaging1733840000000,
];
