import { GatewayError } from '@rosetta/canonical';
import { inputItemsPage, MAX_REFERENCES, rebuildConversation, references, type ResponseRecord } from './responses-conversation';

const PREV = 'resp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const NEXT = 'resp_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const item = (id: string, text: string) => ({ id, type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const record: ResponseRecord = {
  history: [item('msg_old', 'before')],
  input: [item(`msg_${PREV.slice(5)}_i0`, 'question')],
  response: { id: PREV, output: [{ id: `msg_${PREV.slice(5)}_0`, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'answer' }] }] },
};
const stored = new Map([[PREV, record]]);

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

  it('rebuilds the whole conversation: history, the input and output before, then the new input with references resolved', () => {
    const conversation = rebuildConversation({ previous_response_id: PREV, input: [{ type: 'item_reference', id: `msg_${PREV.slice(5)}_0` }, { role: 'user', content: 'more' }] }, stored, NEXT);
    expect(conversation.history).toEqual([...record.history, ...record.input, ...(record.response['output'] as unknown[])]);
    expect(conversation.own).toEqual([(record.response['output'] as unknown[])[0], { role: 'user', content: 'more', type: 'message', id: `msg_${NEXT.slice(5)}_i1` }]);
  });

  it('refuses what is not stored for this key, naming the field', () => {
    expect(refusal(() => rebuildConversation({ previous_response_id: NEXT, input: 'x' }, stored, PREV))).toEqual({ message: `Previous response with id '${NEXT}' not found.`, param: 'previous_response_id' });
    expect(refusal(() => rebuildConversation({ input: [{ type: 'item_reference', id: `msg_${NEXT.slice(5)}_0` }] }, stored, PREV))).toEqual({ message: `Item with id 'msg_${NEXT.slice(5)}_0' not found.`, param: 'input[0].id' });
    expect(refusal(() => rebuildConversation({ input: 7 }, stored, PREV))).toEqual({ message: "Invalid 'input': must be a string or an array", param: 'input' });
  });

  it('pages input items newest first by default, oldest first on request', () => {
    const long: ResponseRecord = { ...record, input: [item('a', '1'), item('b', '2'), item('c', '3')] };
    expect(inputItemsPage(long, { limit: '2' })).toEqual({ object: 'list', data: [item('c', '3'), item('b', '2')], first_id: 'c', last_id: 'b', has_more: true });
    expect(inputItemsPage(long, { order: 'asc', after: 'a' })).toEqual({ object: 'list', data: [item('b', '2'), item('c', '3')], first_id: 'b', last_id: 'c', has_more: false });
  });
});
