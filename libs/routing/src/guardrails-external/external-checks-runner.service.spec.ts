import { Test } from '@nestjs/testing';
import { GatewayError } from '@rosetta/canonical';
import { EXTERNAL_CHECK_RUNNER, type ModelCheck, type WebhookCheck } from '@rosetta/guardrails';
import { loadConfig, ROSETTA_CONFIG } from '@rosetta/platform';
import { ExecutorService } from '../executor.service';
import { RoutingService } from '../routing.service';
import { EXTERNAL_CHECK_RUNNER_PROVIDER, ExternalChecksRunnerService } from './external-checks-runner.service';

const CONTEXT = { requestId: 'req_1', keyId: 'key_1' };
const webhook: WebhookCheck = { check: 'webhook', url: 'http://127.0.0.1:9/hook', timeoutMs: 1_000, fail: 'open', on: 'input', action: 'block' };
const model: ModelCheck = { check: 'model', model: 'rosetta/guard', on: 'input', action: 'block' };

function service(routing: Partial<RoutingService>, env: Record<string, string> = {}) {
  const executor = { complete: () => Promise.reject(new Error('not called')) } as unknown as ExecutorService;
  return new ExternalChecksRunnerService(routing as RoutingService, executor, loadConfig(env));
}

describe('ExternalChecksRunnerService', () => {
  it('runs webhook checks behind WEBHOOK_ALLOW_HOSTS: a loopback URL is refused unless listed', async () => {
    const refusing = service({});
    expect(await refusing.run(webhook, 'text', 'input', CONTEXT)).toEqual({ verdict: { action: 'unavailable', reason: 'refused_url' } });
    // Listed, the URL is called: nothing listens on port 9, so the connection is refused.
    const allowing = service({}, { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    expect(await allowing.run(webhook, 'text', 'input', CONTEXT)).toEqual({ verdict: { action: 'unavailable', reason: 'unreachable' } });
  });

  it('runs model checks through routing, a model it cannot route being upstream_error', async () => {
    const routing: Partial<RoutingService> = {
      resolveModels: () => {
        throw new GatewayError('not_found_error', "The model 'rosetta/guard' does not exist", { status: 404, param: 'model' });
      },
    };
    expect(await service(routing).run(model, 'text', 'input', CONTEXT)).toEqual({ verdict: { action: 'unavailable', reason: 'upstream_error' } });
  });

  it('never rejects, even when its own code fails', async () => {
    // A signal that throws where a real one never does stands in for a bug in the runners.
    const broken = { aborted: false, addEventListener: () => { throw new TypeError('a bug'); }, removeEventListener: () => undefined } as unknown as AbortSignal;
    const context = { ...CONTEXT, signal: broken };
    expect(await service({}).run(model, 'text', 'output', context)).toEqual({ verdict: { action: 'unavailable', reason: 'upstream_error' } });
    expect(await service({}).run(webhook, 'text', 'output', context)).toEqual({ verdict: { action: 'unavailable', reason: 'upstream_error' } });
  });

  it('is what EXTERNAL_CHECK_RUNNER_PROVIDER binds the seam\'s token to', async () => {
    const moduleRef = await Test.createTestingModule({
      providers: [
        ExternalChecksRunnerService,
        EXTERNAL_CHECK_RUNNER_PROVIDER,
        { provide: RoutingService, useValue: {} },
        { provide: ExecutorService, useValue: {} },
        { provide: ROSETTA_CONFIG, useValue: loadConfig({}) },
      ],
    }).compile();
    expect(moduleRef.get(EXTERNAL_CHECK_RUNNER)).toBe(moduleRef.get(ExternalChecksRunnerService));
    await moduleRef.close();
  });
});
