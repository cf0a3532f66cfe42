// Live reload for Node: watch the directories behind a registry's stores and refresh the registry
// when something under them changes. The registry's `refresh()` (the core's) decides what was
// added, changed or removed; this module only notices that the disk moved and debounces.
// `import { watch } from "skillwasm/watch"`.
import { watch as fsWatch, statSync } from "node:fs";
import path from "node:path";

const OPTION_KEYS = ["roots", "onChange", "onError", "debounceMs", "poll", "intervalMs"];

/** @param {unknown} v */
function kindOf(v) {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
}

/** The directories to watch: strings, or stores with a `root` (nodeFsStorage). */
function rootsOf(roots) {
  if (!Array.isArray(roots) || roots.length === 0) {
    throw new TypeError(`watch: options.roots must be a non-empty array of directories or nodeFsStorage stores, not ${kindOf(roots)}`);
  }
  return roots.map((r, i) => {
    let root;
    try {
      root = typeof r === "string" ? r : r !== null && typeof r === "object" ? r.root : undefined;
    } catch {
      root = undefined;
    }
    if (typeof root !== "string" || root === "") {
      throw new TypeError(`watch: options.roots[${i}] must be a directory or a store with a root (nodeFsStorage), not ${kindOf(r)}`);
    }
    return path.resolve(root);
  });
}

function checkOptions(options) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`watch: options must be an object, not ${kindOf(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new TypeError(`watch: unknown option '${key}' (the options are ${OPTION_KEYS.join(", ")})`);
    }
  }
  for (const key of ["onChange", "onError"]) {
    if (options[key] !== undefined && typeof options[key] !== "function") {
      throw new TypeError(`watch: options.${key} must be a function, not ${kindOf(options[key])}`);
    }
  }
  for (const key of ["debounceMs", "intervalMs"]) {
    const v = options[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 3_600_000)) {
      throw new TypeError(`watch: options.${key} must be a number of milliseconds from 0 to 3600000, not ${typeof v === "number" ? v : kindOf(v)}`);
    }
  }
  if (options.poll !== undefined && typeof options.poll !== "boolean") {
    throw new TypeError(`watch: options.poll must be a boolean, not ${kindOf(options.poll)}`);
  }
}

/** The identity of the directory at `root` (device and inode), or null when there is none. */
function identity(root) {
  try {
    const st = statSync(root);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

/**
 * Watches `roots` and refreshes `registry` after changes (debounced), calling `onChange` with the
 * refresh report when skills were added, changed or removed. Uses recursive `fs.watch` where the
 * platform has it; where it does not (or with `poll: true`), refreshes every `intervalMs`. A root
 * that does not exist (yet, or any more: deleted, renamed away, or replaced by another directory)
 * is looked for every `intervalMs` and watched again once it is there (each watched root's
 * identity is checked as often, one stat each); its skills leave and come back through the
 * refreshes. Returns `{ close(), refreshing, polling }`: `close()` stops
 * everything; `refreshing` is the promise of the refresh under way, if any.
 * @param {{ refresh(): Promise<{ added: unknown[]; changed: unknown[]; removed: unknown[] }> }} registry
 * @param {{ roots: (string | { root: string })[]; onChange?: (report: object) => void; onError?: (error: unknown) => void; debounceMs?: number; poll?: boolean; intervalMs?: number }} options
 */
export function watch(registry, options) {
  if (registry === null || typeof registry !== "object" || typeof registry.refresh !== "function") {
    throw new TypeError(`watch: registry must be a SkillRegistry, not ${kindOf(registry)}`);
  }
  checkOptions(options);
  const roots = rootsOf(options.roots);
  const { onChange, onError } = options;
  const debounceMs = options.debounceMs ?? 100;
  const intervalMs = options.intervalMs ?? 1000;

  let closed = false;
  let timer = null;
  let again = false;
  const state = { refreshing: null };
  /** One per root: its fs.watch watcher (null while it has none) and the directory it watches. */
  const watched = roots.map((root) => ({ root, watcher: null, id: null }));
  let poller = null;
  // Every root polled: asked for, or no recursive fs.watch on this platform.
  let pollAll = options.poll === true;

  const report = (e) => {
    if (onError) {
      try {
        onError(e);
      } catch {
        // A listener that throws is not the watcher's failure.
      }
    }
  };

  const unwatch = (w) => {
    if (w.watcher !== null) w.watcher.close();
    w.watcher = null;
    w.id = null;
  };

  // Watches `w.root` when it is there; false when it is not (then it is looked for by polling).
  const watchRoot = (w) => {
    const id = identity(w.root);
    if (id === null) return false;
    try {
      const watcher = fsWatch(w.root, { recursive: true, persistent: true }, schedule);
      watcher.on("error", (e) => {
        report(e);
        unwatch(w);
        startPolling();
      });
      Object.assign(w, { watcher, id });
      return true;
    } catch (e) {
      if (e?.code === "ERR_FEATURE_UNAVAILABLE_ON_PLATFORM") pollAll = true;
      else if (e?.code !== "ENOENT" && e?.code !== "ENOTDIR") report(e);
      return false;
    }
  };

  // A watched root that is gone or is another directory now: its watcher sees nothing any more
  // (fs.watch follows the directory, not the path), so it is dropped and the root watched again
  // or looked for. True when one was.
  const checkRoots = () => {
    let moved = false;
    for (const w of watched) {
      if (w.watcher !== null && identity(w.root) !== w.id) {
        moved = true;
        unwatch(w);
        if (!watchRoot(w)) startPolling();
      }
    }
    return moved;
  };

  // One refresh at a time; a change seen during one asks for another after it.
  const refresh = () => {
    timer = null;
    if (closed) return;
    if (state.refreshing !== null) {
      again = true;
      return;
    }
    if (!pollAll) checkRoots();
    state.refreshing = (async () => {
      try {
        const r = await registry.refresh();
        const n = r.added.length + r.changed.length + r.removed.length;
        if (n > 0 && onChange && !closed) onChange(r);
      } catch (e) {
        report(e);
      } finally {
        state.refreshing = null;
        if (again && !closed) {
          again = false;
          schedule();
        }
      }
    })();
  };

  function schedule() {
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(refresh, debounceMs);
  }

  // Each tick: every root polled refreshes; a missing root that is back is watched again (and
  // refreshes). Polling stops when every root is watched.
  const tick = () => {
    if (pollAll) return schedule();
    let missing = 0;
    let back = false;
    for (const w of watched) {
      if (w.watcher !== null) continue;
      if (watchRoot(w)) back = true;
      else missing += 1;
    }
    if (pollAll || missing > 0 || back) schedule();
    if (!pollAll && missing === 0 && poller !== null) {
      clearInterval(poller);
      poller = null;
    }
  };

  function startPolling() {
    if (poller === null && !closed) poller = setInterval(tick, intervalMs);
  }

  if (!pollAll) {
    for (const w of watched) {
      if (!watchRoot(w)) startPolling();
      if (pollAll) break;
    }
  }
  if (pollAll) {
    for (const w of watched) unwatch(w);
    startPolling();
  }
  // A root renamed away or replaced sends its watcher no event: every `intervalMs` each watched
  // root's identity is checked (one stat per root).
  const guard = pollAll
    ? null
    : setInterval(() => {
        if (!closed && !pollAll && checkRoots()) schedule();
      }, intervalMs);

  return {
    /** Whether changes are found by polling (at `intervalMs`) rather than by fs.watch. */
    get polling() {
      return poller !== null;
    },
    /** The refresh under way, or null. */
    get refreshing() {
      return state.refreshing;
    },
    /** Stops watching; a refresh under way finishes, but reports nothing. */
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      if (poller !== null) clearInterval(poller);
      if (guard !== null) clearInterval(guard);
      poller = null;
      for (const w of watched) unwatch(w);
    },
  };
}
