import { PassThrough, Readable } from 'node:stream';
import { bodyChunks } from './body-chunks';

async function drain(body: AsyncIterable<Uint8Array>): Promise<{ text: string; error?: Error }> {
  let text = '';
  try {
    for await (const chunk of body) text += Buffer.from(chunk).toString();
    return { text };
  } catch (error) {
    return { text, error: error as Error };
  }
}

describe('bodyChunks', () => {
  it('yields a Readable body in order, waiting for chunks written later, and ends with it', async () => {
    const body = new PassThrough();
    const reading = drain(bodyChunks(body));
    body.write('one ');
    await new Promise((resolve) => setImmediate(resolve));
    body.write('two ');
    body.end('three');
    expect(await reading).toEqual({ text: 'one two three' });
  });

  it("throws the stream's error after the chunks before it", async () => {
    const body = new PassThrough();
    const reading = drain(bodyChunks(body));
    body.write('partial');
    await new Promise((resolve) => setImmediate(resolve));
    body.destroy(new Error('socket hang up'));
    const { text, error } = await reading;
    expect(text).toBe('partial');
    expect(error?.message).toBe('socket hang up');
  });

  it('throws a premature close when the stream closes before its end', async () => {
    const body = new PassThrough();
    const reading = drain(bodyChunks(body));
    body.write('partial');
    await new Promise((resolve) => setImmediate(resolve));
    body.destroy();
    const { error } = await reading;
    expect((error as NodeJS.ErrnoException | undefined)?.code).toBe('ERR_STREAM_PREMATURE_CLOSE');
  });

  it('destroys the stream when the reader stops early', async () => {
    const body = new PassThrough();
    body.write('first');
    for await (const chunk of bodyChunks(body)) {
      expect(Buffer.from(chunk).toString()).toBe('first');
      break;
    }
    expect(body.destroyed).toBe(true);
  });

  it('reads a stream that had already ended with its data buffered', async () => {
    const body = Readable.from([Buffer.from('a'), Buffer.from('b')], { objectMode: false });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await drain(bodyChunks(body))).toEqual({ text: 'ab' });
  });

  it('passes any other async iterable through as it is', async () => {
    const source = (async function* () {
      yield new TextEncoder().encode('x');
    })();
    expect(bodyChunks(source)).toBe(source);
  });
});
