/**
 * Bytes built from text and raw runs, for the hot paths that hand a peer bytes (the ingest's COPY
 * stream, the live fan-out message): text is gathered as a string and copied into one growing
 * Buffer only when raw bytes follow or the bytes are taken, so a message of many short pieces costs
 * one UTF-8 copy (a Buffer write per piece costs more than the concatenation), and a long run of
 * digits or hex goes in without becoming part of a string first.
 */
export class ByteWriter {
  #buf: Buffer;
  #at = 0;
  #pending = '';

  constructor(initialBytes: number) {
    this.#buf = Buffer.allocUnsafe(Math.max(initialBytes, 64));
  }

  /** Text, as UTF-8. */
  text(s: string): void {
    this.#pending += s;
  }

  /** Text of single-byte characters only (hex, digits) written at once as latin1, not gathered. */
  latin1(s: string): void {
    this.#flush();
    this.#room(s.length);
    this.#at += this.#buf.write(s, this.#at, 'latin1');
  }

  /**
   * The buffer, with room for `bytes` more at `position`, for a caller that writes raw bytes
   * itself; it then moves the position past them (`advance`).
   */
  reserve(bytes: number): Buffer {
    this.#flush();
    this.#room(bytes);
    return this.#buf;
  }

  get position(): number {
    return this.#at;
  }

  /** After raw bytes written from `position` into the `reserve`d room: where they end. */
  advance(to: number): void {
    if (to < this.#at || to > this.#buf.length) throw new RangeError(`advance to ${to}: outside the reserved room`);
    this.#at = to;
  }

  /** Everything written: a view of the writer's buffer (no copy); the writer is not used after this. */
  bytes(): Buffer {
    this.#flush();
    return this.#buf.subarray(0, this.#at);
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    // at most 3 bytes of UTF-8 per UTF-16 unit; the exact count when that much room is not there already
    const worst = this.#pending.length * 3;
    this.#room(this.#at + worst <= this.#buf.length ? worst : Buffer.byteLength(this.#pending));
    this.#at += this.#buf.write(this.#pending, this.#at);
    this.#pending = '';
  }

  #room(bytes: number): void {
    if (this.#at + bytes <= this.#buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#at + bytes));
    this.#buf.copy(grown, 0, 0, this.#at);
    this.#buf = grown;
  }
}
