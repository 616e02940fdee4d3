export { ExternalChecksRunnerService, EXTERNAL_CHECK_RUNNER_PROVIDER } from './external-checks-runner.service';
export { WebhookCheckRunner } from './webhook-check-runner';
export { ModelCheckRunner, MODEL_CHECK_TIMEOUT_MS } from './model-check-runner';
export { vetWebhookUrl, WebhookTargets, type WebhookTarget, type WebhookTargetsOptions, type WebhookUrlOptions } from './webhook-url';
export { parseWebhookVerdict, MAX_WEBHOOK_SPANS } from './webhook-verdict';
export { MAX_WEBHOOK_ANSWER_BYTES } from './webhook-exchange';
export { parseModelCheckAnswer } from './model-check-verdict';
export { capCheckText, modelCheckRequest, DEFAULT_MODEL_CHECK_CATEGORIES, MODEL_CHECK_HEAD_CHARS, MODEL_CHECK_TAIL_CHARS, type ModelCheckFormat } from './model-check-prompt';
export { LLAMA_GUARD_CATEGORIES, isLlamaGuard } from './llama-guard-categories';
