import { GatewayError } from '@rosetta/canonical';
import { collect, inPieces } from './__fixtures__/load-fixture';
import { GeminiJsonArrayWriter } from './gemini-stream-framing';
import { parseGeminiJsonArray } from './parse-gemini-json-array';

/** Google's default streaming body: one array, pretty-printed elements, CRLF between them. */
const ELEMENTS = [
  { candidates: [{ content: { parts: [{ text: 'Braces } and { in "quotes", a backslash \\ and ] [' }], role: 'model' }, index: 0 }] },
  { candidates: [{ content: { parts: [{ text: 'héllo 👋 \\"still a string\\" }]}' }], role: 'model' }, index: 0 }], nested: [[{}], []] },
  { candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3 } },
];
const BODY = `[${ELEMENTS.map((element) => JSON.stringify(element, null, 2)).join(',\r\n')}\r\n]\n`;

async function* pieces(...parts: string[]): AsyncGenerator<string> {
  yield* parts;
}

describe('parseGeminiJsonArray', () => {
  it.each([
    ['one byte at a time', [1]],
    ['uneven pieces', [1, 3, 7, 2, 11, 5]],
    ['large pieces', [4096]],
  ])('yields every element of a pretty-printed array read %s', async (_label, sizes) => {
    expect(await collect(parseGeminiJsonArray(inPieces(BODY, sizes)))).toEqual(ELEMENTS);
  });

  it('splits anywhere, including between a backslash and the quote it escapes', async () => {
    const body = '[{"t":"a\\"}"},\n{"t":"\\\\"}]';
    for (let cut = 1; cut < body.length; cut++) {
      expect(await collect(parseGeminiJsonArray(pieces(body.slice(0, cut), body.slice(cut))))).toEqual([{ t: 'a"}' }, { t: '\\' }]);
    }
  });

  it('yields each element as soon as it is complete, and stops reading at the closing bracket', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let readAfterClose = false;
    async function* source(): AsyncGenerator<string> {
      yield '[{"a":1}';
      await gate;
      yield ',{"b":2}]';
      readAfterClose = true;
      yield 'garbage';
    }
    const iterator = parseGeminiJsonArray(source());
    expect(await iterator.next()).toEqual({ value: { a: 1 }, done: false });
    release();
    expect(await iterator.next()).toEqual({ value: { b: 2 }, done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(readAfterClose).toBe(false);
  });

  it('reads what JsonArrayWriter writes', async () => {
    const writer = new GeminiJsonArrayWriter();
    const text = writer.open() + ELEMENTS.map((element) => writer.item(element)).join('') + writer.close();
    expect(text.startsWith(`[${JSON.stringify(ELEMENTS[0])},\r\n{`)).toBe(true);
    expect(await collect(parseGeminiJsonArray(pieces(text)))).toEqual(ELEMENTS);
    expect(new GeminiJsonArrayWriter().open() + new GeminiJsonArrayWriter().close()).toBe('[]');
  });

  it('ends quietly on a body cut off mid-element, so the decoder can report the cut', async () => {
    expect(await collect(parseGeminiJsonArray(pieces('[{"a":1},\n{"b":')))).toEqual([{ a: 1 }]);
  });

  it.each([
    ['{"error":{"code":500}}', 'Upstream service error: malformed stream (expected a JSON array)'],
    ['[{"a":1} x', "Upstream service error: malformed stream (unexpected 'x' between array elements)"],
    ['[{"a":}]', 'Upstream service error: malformed stream (malformed array element)'],
  ])('fails with an upstream error on %s', async (body, message) => {
    const failure = collect(parseGeminiJsonArray(pieces(body)));
    await expect(failure).rejects.toBeInstanceOf(GatewayError);
    await expect(failure).rejects.toMatchObject({ type: 'upstream_error', status: 502, message });
  });
});
