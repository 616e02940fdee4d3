/**
 * OpenAI's `encoding_format: "base64"`: a vector as little-endian float32 bytes, base64-encoded.
 * The `openai` SDK asks for it by default and reads the bytes back as a Float32Array, so a vector
 * must be written exactly this way (JSON floats there would be read as garbage).
 */
export function encodeFloat32Base64(values: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i]!, i * 4);
  return bytes.toString('base64');
}

/** The vector in a base64 float32 string; undefined when it is not one (not base64, or not whole floats). */
export function decodeFloat32Base64(text: string): number[] | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) return undefined;
  const values = new Array<number>(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * 4);
  return values;
}
