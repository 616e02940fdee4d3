/** The events a webhook can subscribe to (ARCHITECTURE §9 "Governance"). */
export const ALERT_EVENTS = ['budget.threshold', 'provider.circuit_open', 'provider.circuit_closed', 'guardrail.blocked', 'spend.daily'] as const;
export type AlertEventName = (typeof ALERT_EVENTS)[number];

export function isAlertEventName(value: unknown): value is AlertEventName {
  return typeof value === 'string' && (ALERT_EVENTS as readonly string[]).includes(value);
}

/**
 * One event, as every subscribed webhook receives it: `{"event", "text", "data", "id"}`. The id
 * is deterministic (what happened, to what, in which period), so replicas that notice the same
 * event agree on it and the outbox keeps one; receivers dedupe retries by it.
 */
export interface AlertEvent {
  id: string;
  event: AlertEventName;
  /** A sentence for people (a Slack incoming webhook shows it). */
  text: string;
  data: Record<string, unknown>;
}

/** The body a webhook receives, in this field order. */
export function alertBody(event: AlertEvent): string {
  return JSON.stringify({ event: event.event, text: event.text, data: event.data, id: event.id });
}
