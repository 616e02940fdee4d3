/** Compact base64 packing of numeric arrays for the JSON artefact. */

export function packU32(values: number[]): string {
  return Buffer.from(Uint32Array.from(values).buffer).toString('base64');
}

export function unpackU32(s: string): number[] {
  const b = Buffer.from(s, 'base64');
  return Array.from(new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4));
}

/** Values in [0, 1] quantised to 1/255. */
export function packUnit8(values: number[]): string {
  return Buffer.from(Uint8Array.from(values.map((v) => Math.max(0, Math.min(255, Math.round(v * 255)))))).toString('base64');
}

export function unpackUnit8(s: string): number[] {
  return Array.from(Buffer.from(s, 'base64')).map((v) => v / 255);
}

/** 0/1 labels as a string of '0' and '1'. */
export function packBits(values: Array<0 | 1>): string {
  return values.join('');
}

export function unpackBits(s: string): Array<0 | 1> {
  return Array.from(s, (c) => (c === '1' ? 1 : 0));
}
