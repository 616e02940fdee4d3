import type { AssistantContentPart } from './content-part';
import type { FinishReason } from './finish-reason';
import type { Usage } from './usage';

export interface CanonicalResponse {
  id: string;
  /** The served model: the public id once the gateway has rewritten it. */
  model: string;
  /** Unix seconds. */
  created: number;
  content: AssistantContentPart[];
  finishReason: FinishReason;
  usage?: Usage;
}
