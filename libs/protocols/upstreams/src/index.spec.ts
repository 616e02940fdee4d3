import { bedrockConverseUpstream } from '@rosetta/protocols/bedrock-converse';
import { UPSTREAM_PROTOCOL_IDS, upstreamProtocol } from './index';

describe('upstream protocols', () => {
  it('lists each protocol once, by a distinct id', () => {
    expect(new Set(UPSTREAM_PROTOCOL_IDS).size).toBe(UPSTREAM_PROTOCOL_IDS.length);
  });

  it('registers Bedrock Converse under bedrock-converse', () => {
    expect(UPSTREAM_PROTOCOL_IDS).toContain('bedrock-converse');
    expect(upstreamProtocol('bedrock-converse')).toBe(bedrockConverseUpstream);
  });
});
