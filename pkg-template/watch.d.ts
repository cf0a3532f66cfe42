// Live reload for Node (`import { watch } from "skillwasm/watch"`).
import type { RefreshReport, SkillRegistry } from "./skillwasm.js";

export interface WatchOptions {
  /** The directories behind the registry's stores: paths, or the `nodeFsStorage` stores themselves. */
  roots: (string | { readonly root: string })[];
  /** Called after a refresh that added, changed or removed skills. */
  onChange?: (report: RefreshReport) => void;
  /** Called when a refresh rejects or a watcher fails (the watcher then polls). */
  onError?: (error: unknown) => void;
  /** Quiet time after the last change before the refresh, in ms (default 100). */
  debounceMs?: number;
  /** Poll instead of fs.watch (default false; polling is also the fallback where fs.watch cannot recurse). */
  poll?: boolean;
  /** The polling interval in ms (default 1000). */
  intervalMs?: number;
}

export interface Watcher {
  /** Whether changes are found by polling rather than by fs.watch. */
  readonly polling: boolean;
  /** The refresh under way, or null. */
  readonly refreshing: Promise<void> | null;
  /** Stops watching; a refresh under way finishes but reports nothing. */
  close(): void;
}

/**
 * Refreshes `registry` when something under `roots` changes (debounced; one refresh at a time),
 * reporting added, changed and removed skills to `onChange`. The catalog and the tool's `name`
 * enum follow the registry. A wrong argument or an unknown option key is a TypeError naming it.
 */
export function watch(registry: SkillRegistry, options: WatchOptions): Watcher;
