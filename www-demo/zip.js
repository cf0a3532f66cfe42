// A small ZIP reader for the playground: stored and deflated entries (what every zip tool writes),
// read from the central directory; deflate goes through the browser's DecompressionStream.
// No ZIP64, no encryption: such archives are refused with a message.

const MAX_ENTRIES = 10_000;
const MAX_TOTAL = 64 * 1024 * 1024;

async function inflateRaw(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The files of a ZIP archive: [{ path, data: Uint8Array }], directories left out.
 * @param {ArrayBuffer | Uint8Array} input
 */
export async function readZip(input) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: 22 bytes plus a comment of up to 65535 bytes, at the end.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("not a zip archive (no end of central directory)");
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdOffset === 0xffffffff) throw new Error("ZIP64 archives are not supported");
  if (count > MAX_ENTRIES) throw new Error(`too many entries (${count})`);
  const decoder = new TextDecoder();
  const files = [];
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50) throw new Error("corrupt central directory");
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const compressed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const local = view.getUint32(p + 42, true);
    const path = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
    if (path.endsWith("/")) continue;
    if (flags & 1) throw new Error(`${path}: encrypted entries are not supported`);
    total += size;
    if (total > MAX_TOTAL) throw new Error("archive too large for the playground (over 64 MiB unpacked)");
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw new Error(`${path}: corrupt local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = bytes.subarray(start, start + compressed);
    let data;
    if (method === 0) data = raw.slice();
    else if (method === 8) data = await inflateRaw(raw);
    else throw new Error(`${path}: compression method ${method} is not supported`);
    files.push({ path, data });
  }
  return files;
}
