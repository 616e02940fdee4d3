import { GatewayError } from '@rosetta/canonical';
import { inputItemsPage, MAX_REFERENCES, rebuildConversation, references, type ResponseRecord } from './responses-conversation';

const FIRST = 'resp_cccccccccccccccccccccccccccccccc';
const PREV = 'resp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const NEXT = 'resp_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const item = (id: string, text: string) => ({ id, type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const first: ResponseRecord = { input: [item('msg_old', 'before')], response: { id: FIRST, previous_response_id: null, output: [] } };
const record: ResponseRecord = {
  input: [item(`msg_${PREV.slice(5)}_i0`, 'question')],
  response: { id: PREV, previous_response_id: FIRST, output: [{ id: `msg_${PREV.slice(5)}_0`, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'answer' }] }] },
};
const stored = new Map([
  [FIRST, first],
  [PREV, record],
]);

function refusal(run: () => unknown): { message: string; param?: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return { message: error.message, param: error.param };
  }
  throw new Error('no GatewayError');
}

describe('Responses conversation state', () => {
  it('names the stored responses a body refers to, once each, and bounds them', () => {
    expect(references({ previous_response_id: PREV, input: [{ type: 'item_reference', id: `msg_${PREV.slice(5)}_0` }, { type: 'item_reference', id: `fc_${NEXT.slice(5)}_3` }, { type: 'item_reference', id: 'msg_not_ours' }] })).toEqual([PREV, NEXT]);
    expect(references('not a body')).toEqual([]);
    const many = Array.from({ length: MAX_REFERENCES + 1 }, (_, i) => ({ type: 'item_reference', id: `msg_${i.toString(16).padStart(32, '0')}_0` }));
    expect(refusal(() => references({ input: many }))).toEqual({ message: `A request may refer to at most ${MAX_REFERENCES} stored responses; this one refers to ${MAX_REFERENCES + 1}.`, param: 'input' });
  });

  it('rebuilds the whole conversation: its chain of turns oldest first, then the new input with references resolved', () => {
    const conversation = rebuildConversation({ previous_response_id: PREV, input: [{ type: 'item_reference', id: `msg_${PREV.slice(5)}_0` }, { role: 'user', content: 'more' }] }, stored, NEXT);
    expect(conversation.history).toEqual([...first.input, ...record.input, ...(record.response['output'] as unknown[])]);
    expect(conversation.own).toEqual([(record.response['output'] as unknown[])[0], { role: 'user', content: 'more', type: 'message', id: `msg_${NEXT.slice(5)}_i1` }]);
  });

  it('refuses what is not stored for this key, naming the field', () => {
    expect(refusal(() => rebuildConversation({ previous_response_id: NEXT, input: 'x' }, stored, PREV))).toEqual({ message: `Previous response with id '${NEXT}' not found.`, param: 'previous_response_id' });
    // A turn further up the chain deleted or expired: the conversation cannot be rebuilt whole.
    expect(refusal(() => rebuildConversation({ previous_response_id: PREV, input: 'x' }, new Map([[PREV, record]]), NEXT))).toEqual({
      message: `Previous response with id '${FIRST}' (earlier in the conversation it continues) not found.`,
      param: 'previous_response_id',
    });
    expect(refusal(() => rebuildConversation({ input: [{ type: 'item_reference', id: `msg_${NEXT.slice(5)}_0` }] }, stored, PREV))).toEqual({ message: `Item with id 'msg_${NEXT.slice(5)}_0' not found.`, param: 'input[0].id' });
    expect(refusal(() => rebuildConversation({ input: 7 }, stored, PREV))).toEqual({ message: "Invalid 'input': must be a string or an array", param: 'input' });
  });

  it('pages input items newest first by default, oldest first on request', () => {
    const long: ResponseRecord = { ...record, input: [item('a', '1'), item('b', '2'), item('c', '3')] };
    expect(inputItemsPage(long, { limit: '2' })).toEqual({ object: 'list', data: [item('c', '3'), item('b', '2')], first_id: 'c', last_id: 'b', has_more: true });
    expect(inputItemsPage(long, { order: 'asc', after: 'a' })).toEqual({ object: 'list', data: [item('b', '2'), item('c', '3')], first_id: 'b', last_id: 'c', has_more: false });
  });

  it('refuses an item referenced twice, as OpenAI does, rather than multiplying a stored item', () => {
    const id = `msg_${PREV.slice(5)}_0`;
    const body = { input: [{ type: 'item_reference', id }, { type: 'item_reference', id }] };
    expect(refusal(() => rebuildConversation(body, stored, NEXT))).toEqual({ message: `Duplicate item found with id ${id}. Remove the duplicate items from your input and try again.`, param: 'input[1].id' });
  });

  it('resolves item references in work linear in the references and the stored items', () => {
    const n = 400;
    let idReads = 0;
    const counted = (i: number) => {
      const value = item(`msg_${PREV.slice(5)}_i${i}`, `q${i}`);
      const id = value.id;
      return Object.defineProperty(value, 'id', {
        enumerable: true,
        get: () => {
          idReads++;
          return id;
        },
      });
    };
    const big: ResponseRecord = { history: [], input: Array.from({ length: n }, (_, i) => counted(i)), response: { id: PREV, output: [] } };
    const body = { input: Array.from({ length: n }, (_, i) => ({ type: 'item_reference', id: `msg_${PREV.slice(5)}_i${i}` })) };
    const conversation = rebuildConversation(body, new Map([[PREV, big]]), NEXT);
    expect(conversation.own).toHaveLength(n);
    // One look at each stored item's id (an index), not one per reference per item (n² = 160,000).
    expect(idReads).toBeLessThanOrEqual(4 * n);
  });
});
