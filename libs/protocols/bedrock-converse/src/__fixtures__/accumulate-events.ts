/** Test-only: canonical stream events put together into the parts a whole answer would have (StreamedAnswer), failing on an in-stream error. */
import { StreamedAnswer, type AssistantContentPart, type FinishReason, type StreamEvent, type Usage } from '@rosetta/canonical';

export interface Accumulated {
  content: AssistantContentPart[];
  finishReason?: FinishReason;
  usage?: Usage;
}

export function accumulateEvents(events: StreamEvent[]): Accumulated {
  const answer = new StreamedAnswer();
  for (const event of events) {
    if (event.type === 'error') throw event.error;
    answer.add(event);
  }
  const response = answer.response();
  if (!response) throw new Error('the stream never finished');
  return { content: response.content, finishReason: response.finishReason, ...(response.usage ? { usage: response.usage } : {}) };
}
