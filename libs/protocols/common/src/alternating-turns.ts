/**
 * Turns for the protocols that want user and assistant to alternate (Anthropic, Bedrock
 * Converse): consecutive parts of one role join one turn, and a turn's tool results go first, as
 * both want them. A turn whose parts were all dropped is no turn: both refuse empty content.
 */
export interface AlternatingTurn<B> {
  role: 'user' | 'assistant';
  results: B[];
  blocks: B[];
}

export function addToTurn<B>(turns: AlternatingTurn<B>[], role: AlternatingTurn<B>['role'], key: 'results' | 'blocks', blocks: B[]): void {
  if (blocks.length === 0) return;
  const last = turns[turns.length - 1];
  if (last?.role === role) {
    last[key].push(...blocks);
    return;
  }
  const turn: AlternatingTurn<B> = { role, results: [], blocks: [] };
  turn[key].push(...blocks);
  turns.push(turn);
}
