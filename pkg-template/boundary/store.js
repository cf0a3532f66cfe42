// Calls of a caller's store: the call made and its answer awaited within a time, as a pair that
// always settles ({@link callStore}), and a caught exception described for Rust's errors.

import { call, describe, NativePromise, rethrowTrap } from "./intrinsics.js";

/**
 * Calls a store's `fn` on `self` and waits for the answer at most `ms` milliseconds. Answers
 * `[0, answer]` or `[1, what went wrong]` at once when the store answered synchronously (threw, or
 * returned no thenable); otherwise a promise that always resolves (never rejects, never stays
 * pending), to `[0, answer]`, `[1, what went wrong]` or `[2]` (no answer in time). A thenable is read the way `await` reads it: a `then` getter that
 * throws is a rejection, a second resolution is ignored.
 */
export function callStore(fn, self, a, b, ms) {
  let ret;
  try {
    ret = call(fn, self, a, b);
  } catch (e) {
    rethrowTrap(e);
    return [1, `threw: ${describe(e)}`];
  }
  // An answer that is no thenable is settled now: the pair itself, no promise and no timer (a
  // store whose calls complete synchronously costs no event-loop turn per call). `then` is read
  // once, as `await` reads it; a getter that throws is a rejection.
  if (ret === null || (typeof ret !== "object" && typeof ret !== "function")) return [0, ret];
  let then;
  try {
    then = ret.then;
  } catch (e) {
    rethrowTrap(e);
    return [1, `rejected: ${describe(e)}`];
  }
  if (typeof then !== "function") return [0, ret];
  return new NativePromise((resolve) => {
    let done = false;
    let timer;
    const finish = (r) => {
      if (done) return;
      done = true;
      if (timer !== undefined) {
        try {
          clearTimeout(timer);
        } catch {
          // No timers here: nothing to clear.
        }
      }
      resolve(r);
    };
    try {
      timer = setTimeout(() => finish([2]), ms);
    } catch {
      // No timers in this runtime: the store's own answer is awaited.
    }
    new NativePromise((res) => res(ret)).then(
      (v) => finish([0, v]),
      (e) => finish([1, `rejected: ${describe(e)}`]),
    );
  });
}

/** A caught exception as text, for errors Rust reports (never throws). */
export function describeError(e) {
  return describe(e);
}
