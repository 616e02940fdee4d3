export { startSimulator, type RunningSimulator, type SimulatorOptions } from './simulator';
export type {
  NeutralMessage,
  NeutralRequest,
  NeutralRole,
  NeutralTool,
  NeutralToolChoice,
  NeutralToolResult,
  ReplyPlan,
  ReplySource,
  Script,
  SimError,
  SimFinish,
  SimReply,
  SimThinking,
  SimToolCall,
  SimUsage,
} from './reply-plan';
export { planReply } from './reply-plan';
export { tokenize } from './reply-limits';
export { parseScript, parseSimReply, SimReplyError } from './parse-sim-reply';
export { synthesiseArguments } from './synthesise-arguments';
export type { RecordedProtocol, RecordedRequest } from './request-recorder';
export type { ProtocolModule, SimExchange, SimProtocol, SimSettings } from './protocols/protocol-module';
export { SIMULATED_MODELS } from './protocols/openai';
