import 'reflect-metadata';
import { GatewayError } from '@rosetta/canonical';
import { validateBody } from '@rosetta/platform';
import { CreateKeyDto, UpdatePlanDto, UpsertPlanDto } from './admin.dto';

function problem(dto: new () => object, body: unknown, rejectUnknown = false): string | undefined {
  try {
    validateBody(dto, body, { rejectUnknown });
    return undefined;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return `${error.param}: ${error.message}`;
  }
}

describe('admin DTO messages', () => {
  it('PUT /admin/plans needs both limits, says "required" for one left out, and takes null as unlimited', () => {
    expect(problem(UpsertPlanDto, { rpm: 600 })).toBe("tpm: Missing required field 'tpm'");
    expect(problem(UpsertPlanDto, { tpm: 600 })).toBe("rpm: Missing required field 'rpm'");
    expect(problem(UpsertPlanDto, { rpm: 600, tpm: null })).toBeUndefined();
    expect(problem(UpsertPlanDto, { rpm: null, tpm: null })).toBeUndefined();
    expect(problem(UpsertPlanDto, { rpm: 2.5, tpm: 1 })).toBe("rpm: Invalid 'rpm': must be a whole number");
    expect(problem(UpsertPlanDto, { rpm: '600', tpm: 1 })).toBe("rpm: Invalid 'rpm': must be a whole number");
    expect(problem(UpsertPlanDto, { rpm: -1, tpm: 1 })).toBe("rpm: Invalid 'rpm': must not be less than 0");
    expect(problem(UpsertPlanDto, { rpm: 1, tpm: 3e9 })).toBe("tpm: Invalid 'tpm': must not be greater than 2000000000");
    expect(problem(UpsertPlanDto, { rpm: 1, tpm: 1, burst: 5 }, true)).toBe("burst: Unknown field 'burst'");
  });

  it('PATCH /admin/plans takes any subset, and refuses a misspelt field instead of changing nothing', () => {
    expect(problem(UpdatePlanDto, {})).toBeUndefined();
    expect(problem(UpdatePlanDto, { rpm: 5 })).toBeUndefined();
    expect(problem(UpdatePlanDto, { tpm: null })).toBeUndefined();
    expect(problem(UpdatePlanDto, { tpm: 0.5 })).toBe("tpm: Invalid 'tpm': must be a whole number");
    expect(problem(UpdatePlanDto, { rmp: 5 }, true)).toBe("rmp: Unknown field 'rmp'");
  });

  it('key fields: required, whole numbers, and the custom wording of the others', () => {
    expect(problem(CreateKeyDto, { plan: 'pro' })).toBe("name: Missing required field 'name'");
    expect(problem(CreateKeyDto, { name: null, plan: 'pro' })).toBe("name: Invalid 'name': must be a string, not null");
    expect(problem(CreateKeyDto, { name: 'ci', plan: 'pro', rpm: 10.5 })).toBe("rpm: Invalid 'rpm': must be a whole number");
    expect(problem(CreateKeyDto, { name: 'ci', plan: 'pro', budget_period: 'week' })).toBe("budget_period: Invalid 'budget_period': must be one of day, month, total");
    expect(problem(CreateKeyDto, { name: 'ci', plan: 'pro', budget_usd: '10' })).toBe("budget_usd: Invalid 'budget_usd': must be a number of US dollars");
    expect(problem(CreateKeyDto, { name: 'ci', plan: 'Pro Plan' })).toBe("plan: Invalid 'plan': must be a lowercase plan slug");
  });
});
