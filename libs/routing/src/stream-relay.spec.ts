import { GatewayError, type StreamEvent, type WireFrameEvent } from '@rosetta/canonical';
import { holdUntilFirstEvent } from './stream-relay';

const wire = (content: boolean): WireFrameEvent => ({ type: 'wire', text: 'data: {}\n\n', payload: '{}', data: {}, content, outputChars: content ? 2 : 0 });

async function* events(list: StreamEvent[]): AsyncGenerator<StreamEvent> {
  yield* list;
}

describe('holdUntilFirstEvent', () => {
  it('holds forwarded frames without output, so a failure after them can still fall back', async () => {
    const iterator = events([{ type: 'start', id: 'x', model: 'm', created: 1 }, wire(false), { type: 'usage', usage: { inputTokens: 1, outputTokens: 0 } }, wire(true), wire(true)]);
    const held = await holdUntilFirstEvent(iterator);
    expect(held.map((e) => (e.type === 'wire' ? `wire:${e.content}` : e.type))).toEqual(['start', 'wire:false', 'usage', 'wire:true']);
  });

  it('throws an error that comes before the first frame with output', async () => {
    const failure = new GatewayError('upstream_error', 'cut', { status: 502 });
    const iterator = events([wire(false), { type: 'error', error: failure }]);
    await expect(holdUntilFirstEvent(iterator)).rejects.toBe(failure);
  });
});
