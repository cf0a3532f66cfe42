// Publishing skills as an Agent Skills Discovery index. The core builds the index and the
// artifacts (publishSkillFiles); this module only gathers the files from what the host hands in.
import { SkillRegistry, isSkippedDirectory, publishRegistry, publishSkillFiles } from "./guarded.js";
import { assertKey, fileEntries, optionsObject, show } from "./storage/keys.js";

const MAX_PAGES = 100_000;

function isStore(v) {
  return v !== null && typeof v === "object" && typeof v.list === "function" && typeof v.read === "function";
}

/** Every file of `store` under `prefix`, keys relative to it, skipped directories left out. */
async function storeFiles(store, prefix) {
  const items = [];
  let cursor;
  for (let page = 0; page < MAX_PAGES; page++) {
    const got = await store.list(prefix, cursor === undefined ? {} : { cursor });
    for (const { key } of got.entries ?? []) {
      const rel = key.slice(prefix.length);
      const dirs = rel.split("/").slice(0, -1);
      if (dirs.some((d) => isSkippedDirectory(d))) continue;
      const content = await store.read(key);
      if (content !== null) items.push({ input: content, dirName: rel });
    }
    cursor = got.cursor;
    if (cursor === undefined) break;
  }
  return items;
}

/**
 * The discovery index and its artifacts for a set of skills: `source` is a registry (the skills it
 * offers the model, each read through its own store), `{ key: content }` (or a Map, or an array
 * of `[key, content]`) whose top-level directories holding a SKILL.md are the skills, or a store
 * (`{ list, read }`) read under `options.prefix`.
 *
 * @param {import("./index.js").SkillRegistry | Record<string, string | Uint8Array> | Map<string, string | Uint8Array> | import("./index.js").SkillStorage} source
 * @param {{ baseUrl?: string; prefix?: string }} [options]
 * @returns {Promise<import("./index.js").PublishedIndex>}
 */
export async function publishWellKnown(source, options = {}) {
  options = optionsObject(options, "publishWellKnown", { keys: ["baseUrl", "prefix"] });
  const prefix = options.prefix ?? "";
  if (typeof prefix !== "string" || (prefix !== "" && !prefix.endsWith("/"))) {
    throw new TypeError(`publishWellKnown: options.prefix must be "" or end with '/', got ${show(prefix)}`);
  }
  if (source instanceof SkillRegistry) {
    if (options.prefix !== undefined) throw new TypeError("publishWellKnown: options.prefix applies to a store, not a registry");
    return publishRegistry(source, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  }
  let items;
  if (isStore(source)) items = await storeFiles(source, prefix);
  else if (source !== null && typeof source === "object") {
    items = fileEntries(source).map(([key, content]) => {
      assertKey(key);
      return { input: content, dirName: key };
    });
  } else {
    throw new TypeError(`publishWellKnown: source must be { key: content }, a Map or a store, got ${show(source)}`);
  }
  return publishSkillFiles(items, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
}
