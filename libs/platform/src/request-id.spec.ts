import { isGatewayRequestId, newRequestId, requestIds } from './request-id';

describe('request ids', () => {
  it('are unique, random and in the documented shape', () => {
    const ids = Array.from({ length: 5_000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 50)) expect(isGatewayRequestId(id)).toBe(true);
    // No shared prefix or counter a caller could extrapolate from: consecutive ids differ early.
    const [first, second] = [ids[0]!, ids[1]!];
    expect(first.slice(0, 8)).not.toBe(second.slice(0, 8));
  });

  it("always mint the gateway's own id and keep the caller's only when safe to echo and log", () => {
    const quoted = requestIds('trace-42.abc:1');
    expect(isGatewayRequestId(quoted.id)).toBe(true);
    expect(quoted.clientId).toBe('trace-42.abc:1');
    const victim = newRequestId();
    expect(requestIds(victim).id).not.toBe(victim);
    expect(requestIds('bad id\r\nx-injected: 1').clientId).toBeUndefined();
    expect(requestIds('x'.repeat(129)).clientId).toBeUndefined();
    expect(requestIds(['first-id', 'second-id']).clientId).toBe('first-id');
    expect(requestIds(undefined).clientId).toBeUndefined();
  });

  it('tells gateway ids from anything else', () => {
    expect(isGatewayRequestId('req_abc')).toBe(false);
    expect(isGatewayRequestId('client-chosen-0000000')).toBe(false);
  });
});
