import type { Provider } from '@nestjs/common';
import { GUARDRAIL_BLOCK_LISTENER, type GuardrailBlockListener } from '@rosetta/routing';
import { AlertsService } from './alerts.service';

/**
 * Every guardrail block the data plane sees goes to the `guardrail.blocked` counter
 * (AlertsService.guardrailBlocked: one INCR, never waited for). Bound through the data plane's
 * optional listener token, so the data plane does not depend on alerts.
 */
export const GUARDRAIL_BLOCK_ALERTS: Provider = {
  provide: GUARDRAIL_BLOCK_LISTENER,
  inject: [AlertsService],
  useFactory: (alerts: AlertsService): GuardrailBlockListener => (event) => {
    if (!event.keyId) return;
    alerts.guardrailBlocked({ keyId: event.keyId, teamId: event.teamId ?? null, check: event.verdict.check });
  },
};
