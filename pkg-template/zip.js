// A small zip reader for skill folders uploaded or dropped as an archive, with no dependency: the
// central directory is read, and each entry is stored or deflated (inflated with the runtime's
// DecompressionStream("deflate-raw"), which Node, workerd and browsers all have).
// Every size is checked while inflating, so a zip whose headers lie about sizes (a zip bomb)
// stops at the limit. Not supported: zip64, encryption, methods other than stored and deflate.

import { messageText } from "./instance.js";

export class ZipError extends Error {
  /** @param {number} status 400 for a malformed zip, 413 for one over a limit */
  constructor(status, message) {
    super(messageText(message));
    this.status = status;
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

let crcTable = null;
function crc32(bytes) {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

async function inflate(data, max, name) {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) throw new ZipError(413, `${name} inflates past the limit (${max} bytes left for it)`);
      chunks.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    if (e instanceof ZipError) throw e;
    throw new ZipError(400, `${name}: not valid deflate data`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const DEFAULT_LIMITS = { fileBytes: 16 * 1024 * 1024, uploadBytes: 64 * 1024 * 1024, files: 10_000 };

/**
 * The files of a zip: [{ path, bytes }] (directory entries left out). Throws a ZipError (status
 * 400 for a malformed archive, 413 for one over a limit).
 * @param {Uint8Array | ArrayBuffer} input
 * @param {{ fileBytes?: number, uploadBytes?: number, files?: number }} [options]
 */
export async function unzip(input, options = {}) {
  const zip = bytesOf(input);
  const limits = limitsOf(options);
  try {
    return await readZip(zip, limits);
  } catch (e) {
    // Every offset is checked before it is read; should one still fall outside the bytes, the
    // archive is malformed (a ZipError), not the caller's mistake.
    if (e instanceof RangeError) throw new ZipError(400, "corrupt zip (an offset is out of range)");
    throw e;
  }
}

// The typed array intrinsics, read from the prototype so that an own property or a subclass
// cannot lie about where the bytes are.
const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (name) => /** @type {(this: unknown) => any} */ (Object.getOwnPropertyDescriptor(TypedArray, name)?.get);
const taBuffer = intrinsic("buffer");
const taByteOffset = intrinsic("byteOffset");
const taByteLength = intrinsic("byteLength");
const abByteLength = /** @type {(this: unknown) => number} */ (Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength")?.get);

/**
 * A plain Uint8Array over the bytes of `input` (a Uint8Array or an ArrayBuffer): TypeError
 * naming `zip` for anything else. A detached buffer gives no bytes (then "not a zip file").
 * @param {unknown} input
 * @returns {Uint8Array}
 */
function bytesOf(input) {
  const wrong = () => new TypeError(`unzip: zip must be a Uint8Array or an ArrayBuffer, got ${input === null ? "null" : Array.isArray(input) ? "an array" : typeof input}`);
  if (input === null || typeof input !== "object") throw wrong();
  if (input instanceof ArrayBuffer) {
    let n;
    try {
      n = Reflect.apply(abByteLength, input, []);
    } catch {
      throw wrong();
    }
    return n === 0 ? new Uint8Array(0) : new Uint8Array(input);
  }
  if (!(input instanceof Uint8Array)) throw wrong();
  let buffer, offset, length;
  try {
    buffer = Reflect.apply(taBuffer, input, []);
    offset = Reflect.apply(taByteOffset, input, []);
    length = Reflect.apply(taByteLength, input, []);
  } catch {
    throw wrong(); // a Proxy standing in for a Uint8Array
  }
  if (Reflect.apply(abByteLength, buffer, []) === 0) return new Uint8Array(0); // detached
  return new Uint8Array(buffer, offset, length);
}

/**
 * The limits of `unzip`: the defaults, with each given one checked (a non-negative number).
 * @param {unknown} options
 */
function limitsOf(options) {
  if (options === undefined || options === null) return { ...DEFAULT_LIMITS };
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`unzip: limits must be an options object, got ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  for (const k of Object.keys(options)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, k) && options[k] !== undefined) {
      throw new TypeError(`unzip: unknown limit limits.${k} (the limits are ${Object.keys(DEFAULT_LIMITS).join(", ")})`);
    }
  }
  const limits = { ...DEFAULT_LIMITS };
  for (const k of /** @type {(keyof typeof DEFAULT_LIMITS)[]} */ (["fileBytes", "uploadBytes", "files"])) {
    const v = options[k];
    if (v === undefined) continue;
    if (typeof v !== "number" || Number.isNaN(v) || v < 0) {
      throw new TypeError(`unzip: limits.${k} must be a non-negative number, got ${typeof v === "string" ? JSON.stringify(v) : typeof v}`);
    }
    limits[k] = v;
  }
  return limits;
}

/**
 * @param {Uint8Array} zip
 * @param {typeof DEFAULT_LIMITS} limits
 */
async function readZip(zip, limits) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError(400, "not a zip file (no end of central directory)");
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new ZipError(400, "zip64 archives are not supported");
  if (count > limits.files) throw new ZipError(413, `more than ${limits.files} files`);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const files = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== CENTRAL) throw new ZipError(400, "corrupt central directory");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    if (at + 46 + nameLen > zip.length) throw new ZipError(400, "corrupt central directory");
    let name;
    try {
      name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLen));
    } catch {
      throw new ZipError(400, "a file name is not UTF-8");
    }
    at += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith("/")) continue; // a directory entry
    if (flags & 1) throw new ZipError(400, `${name} is encrypted`);
    if (method !== 0 && method !== 8) throw new ZipError(400, `${name}: compression method ${method} is not supported`);
    if (local + 30 > zip.length || view.getUint32(local, true) !== LOCAL) throw new ZipError(400, `${name}: corrupt local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compressed > zip.length) throw new ZipError(400, `${name}: truncated`);
    const data = zip.subarray(start, start + compressed);
    const max = Math.min(limits.fileBytes, limits.uploadBytes - total);
    let bytes;
    if (method === 0) {
      if (data.length > limits.fileBytes) throw new ZipError(413, `${name} is larger than ${limits.fileBytes} bytes`);
      bytes = data.slice();
    } else {
      bytes = await inflate(data, max, name);
    }
    total += bytes.length;
    if (total > limits.uploadBytes) throw new ZipError(413, `the files add up to more than ${limits.uploadBytes} bytes`);
    if (crc32(bytes) !== crc) throw new ZipError(400, `${name}: CRC mismatch`);
    files.push({ path: name, bytes });
  }
  return files;
}
