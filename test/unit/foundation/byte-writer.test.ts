/**
 * ByteWriter (@vitalis/runtime): the bytes of the COPY stream and the live fan-out message are
 * exactly the UTF-8 of the text and the raw runs written, in order, however the buffer had to grow.
 */
import { describe, expect, it } from 'vitest';
import { ByteWriter } from '@vitalis/runtime';

describe('ByteWriter', () => {
  it('writes text as UTF-8, latin1 runs and raw bytes in order, growing from any first size', () => {
    for (const initial of [0, 8, 100, 1 << 16]) {
      const out = new ByteWriter(initial);
      let expected = '';
      for (let i = 0; i < 300; i++) {
        const t = i % 7 === 0 ? `SpO₂ ${i} % — °C 🫀\t` : `row ${i}\t`;
        out.text(t);
        expected += t;
        if (i % 5 === 0) {
          const hex = Buffer.from([i & 0xff, 0, 255]).toString('hex');
          out.latin1(hex);
          expected += hex;
        }
        if (i % 11 === 0) {
          const buf = out.reserve(3);
          const at = out.position;
          buf[at] = 0x41;
          buf[at + 1] = 0x42;
          out.advance(at + 2);
          expected += 'AB';
        }
      }
      expect(out.bytes().equals(Buffer.from(expected, 'utf8'))).toBe(true);
    }
  });

  it('refuses to move its position outside the reserved room', () => {
    const out = new ByteWriter(16);
    out.text('abc');
    const buf = out.reserve(4);
    expect(() => out.advance(buf.length + 1)).toThrow(RangeError);
    expect(() => out.advance(out.position - 1)).toThrow(RangeError);
    expect(out.bytes().toString()).toBe('abc');
  });
});
