// UTF-8 boundaries in a byte stream cut into reads: the bytes of a character that a read cut
// off at its end. The pane host keeps them so a viewer attaching between two reads starts
// decoding with the character whole.

/** The trailing bytes of an incomplete UTF-8 character at the end of `b`, or null. */
export function incompleteUtf8Tail(b: Uint8Array): Buffer | null {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? Buffer.from(b.subarray(b.length - back)) : null;
  }
  return null;
}
