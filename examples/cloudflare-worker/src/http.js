// What every endpoint of the Worker shares: the error an endpoint throws for an HTTP status, JSON
// answers, and a request body read within a bound.

const MiB = 1024 * 1024;
// How much of an oversized body is read (and dropped) so that its sender gets the 413.
const DRAIN_BYTES = 32 * MiB;

/** An endpoint's refusal: the status and message it answers with, and fields beside them. */
export class HttpError extends Error {
  constructor(status, message, extra = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

export const json = (value, status = 200) => Response.json(value, { status });

/**
 * The body, refused with 413 as soon as it passes `max` bytes (Content-Length is not trusted, and
 * a body without one, chunked, is counted as it comes): at most `max` bytes are ever kept. The
 * rest of an oversized body is read and dropped, up to DRAIN_BYTES more, before the 413: a client
 * still sending (fetch, curl) sees its connection reset otherwise, not the answer. A body that
 * says or turns out to be larger than that is cut off at once.
 */
export async function readCapped(request, max) {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  const tooLarge = () => new HttpError(413, `the body is larger than ${max} bytes`);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  if (Number.isFinite(declared) && declared > max) {
    await drain(reader, declared <= max + DRAIN_BYTES ? declared : 0);
    throw tooLarge();
  }
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await drain(reader, DRAIN_BYTES);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.byteLength) - c.byteLength);
  return out;
}

/** Reads and drops at most `limit` more bytes of a body, then cancels what is left of it. */
async function drain(reader, limit) {
  let dropped = 0;
  try {
    while (dropped <= limit) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
  } catch {
    return; // the client went away
  }
  await reader.cancel().catch(() => {});
}
