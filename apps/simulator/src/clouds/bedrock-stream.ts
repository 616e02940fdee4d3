import { GARBAGE_TEXT, streamFaultsOf } from '../fault-injection';
import type { SimExchange } from '../protocols/protocol-module';
import type { ReplyPlan } from '../reply-plan';
import { playStream, type StreamFrame } from '../sse-stream';
import { EVENT_STREAM_HEADERS, exceptionFrame, rawEventFrame } from './aws-event-stream-frames';
import { streamException } from './bedrock-errors';

/**
 * A Bedrock stream (ConverseStream, or invoke's chunks) with the plan's pacing and faults: a
 * scripted failure as the operation's own exception frame, garbage as an event of `garbageEvent`
 * whose payload is not JSON.
 */
export async function playBedrockStream(
  exchange: SimExchange,
  plan: ReplyPlan,
  frames: StreamFrame[],
  operation: 'converse-stream' | 'invoke-with-response-stream',
  garbageEvent: string,
): Promise<void> {
  const failure = streamException(plan.error, operation);
  await playStream(exchange.res, exchange.signal, {
    frames,
    errorFrame: exceptionFrame(failure.type, failure.message),
    garbageFrame: rawEventFrame(garbageEvent, GARBAGE_TEXT),
    faults: streamFaultsOf(plan),
    tokensPerSecond: plan.tokensPerSecond ?? exchange.settings.tokensPerSecond,
    headers: { ...EVENT_STREAM_HEADERS, 'x-amzn-requestid': exchange.requestId },
  });
}
