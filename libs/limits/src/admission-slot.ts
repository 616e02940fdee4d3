/**
 * The hash tag of everything one admission touches in Redis: the key's request and token windows,
 * the key's budget counter and its team's (docs/decisions/0026). Keys that share a `{tag}` share a
 * Redis Cluster slot, so the admission script and its settlement each stay one call on a cluster
 * too. A key in a team takes the team's tag (the team's counter is shared by all its keys); a key
 * without one takes its own. A team's traffic thus lands on one master, and teams spread over the
 * masters.
 */
export function admissionTag(key: { id: string; teamId: string | null }): string {
  return key.teamId ? teamTag(key.teamId) : `{k:${key.id}}`;
}

/** The admission tag of every key in the team. */
export function teamTag(teamId: string): string {
  return `{t:${teamId}}`;
}
