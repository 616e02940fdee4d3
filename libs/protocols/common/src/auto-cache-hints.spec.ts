import type { CanonicalRequest } from '@rosetta/canonical';
import { withAutoCacheHints } from './auto-cache-hints';

const request = (fields: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'rosetta/claude-sonnet-4-5',
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'rules' }] },
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  ],
  tools: [{ name: 'f' }],
  stream: false,
  routing: {},
  autoPromptCache: true,
  ...fields,
});

describe('automatic cache hints on the canonical request', () => {
  it('hints after the system prompt and after the last turn, copying what it changes', () => {
    const asked = request();
    const hinted = withAutoCacheHints(asked);
    expect(hinted.messages[0]!.content).toEqual([{ type: 'text', text: 'rules', cache: { type: 'ephemeral' } }]);
    expect(hinted.messages[1]!.content).toEqual([{ type: 'text', text: 'hi', cache: { type: 'ephemeral' } }]);
    expect(hinted.tools).toEqual([{ name: 'f' }]);
    expect(asked.messages[1]!.content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('hints the last tool when there is no system prompt, and a tool result', () => {
    const hinted = withAutoCacheHints(request({ messages: [{ role: 'tool', content: [{ type: 'tool_result', toolCallId: 't', content: [{ type: 'text', text: 'r' }] }] }] }));
    expect(hinted.tools).toEqual([{ name: 'f', cache: { type: 'ephemeral' } }]);
    expect(hinted.messages[0]!.content[0]).toMatchObject({ type: 'tool_result', cache: { type: 'ephemeral' } });
  });

  it('changes nothing when auto is off or the client placed a hint', () => {
    const off = request({ autoPromptCache: false });
    expect(withAutoCacheHints(off)).toBe(off);
    const own = request({ tools: [{ name: 'f', cache: { type: 'ephemeral' } }] });
    expect(withAutoCacheHints(own)).toBe(own);
  });
});
