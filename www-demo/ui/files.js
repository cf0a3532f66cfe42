// Skills in and out of IndexedDB: folders, drops and zips become `.agents/skills/<name>/` keys
// (through the package's putSkillFiles and deleteKeys), and the bundled examples are fetched.
import * as sw from "/pkg/browser.js";
import { plural, toast } from "./dom.js";
import { skillCounts, skillEntries } from "./diagnostics.js";
import { MAX_FILE_BYTES, ROOT, hooks, isSkillFile, state } from "./state.js";

// What archives and file managers add beside a skill's files (an import rule, not discovery's).
const ARCHIVE_JUNK = new Set(["__MACOSX", ".DS_Store"]);

/**
 * Whether directory segments below a skill directory hold one discovery skips (the package's
 * rule: `.git`, `node_modules`, dot-directories). Above a skill they do not count: a dropped
 * repository keeps its `.agents/skills/` or `.claude/skills/` folders.
 */
const skippedBelow = (segments) => segments.some((p) => sw.isSkippedDirectory(p));

/** The deepest of `dirs` that holds the path `parts` (a strict prefix of it), or undefined. */
function nearest(dirs, parts) {
  let best;
  for (const d of dirs) {
    if (d.length < parts.length && d.every((p, i) => parts[i] === p) && (best === undefined || d.length > best.length)) best = d;
  }
  return best;
}

/** Every entry under prefix, page by page. */
export async function listAll(prefix) {
  const out = [];
  let cursor;
  do {
    const page = await state.storage.list(prefix, cursor ? { cursor } : {});
    out.push(...page.entries);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return out;
}

function validKey(key) {
  try {
    sw.assertKey(key);
    return true;
  } catch {
    return false;
  }
}

function safeSegment(s) {
  const cleaned = s.replace(/[\\/%\u0000-\u001f]+/g, "-").replace(/^\.+/, "").trim();
  return cleaned === "" ? "skill" : cleaned;
}

/**
 * Store files as skills: every directory holding a SKILL.md becomes `.agents/skills/<its name>/`
 * with the files beneath it (a nested skill takes its own files). A skill already stored under
 * that name is replaced. `entries`: [{ path: "folder/SKILL.md", data: Uint8Array | string }].
 * Returns { folders, files, skipped } and, once the registry is refreshed (`refresh`), the
 * { skills, refused } among them as the page counts them (skillCounts).
 */
export async function addFiles(entries, { refresh = true } = {}) {
  const files = [];
  const skipped = [];
  for (const { path, data } of entries) {
    const parts = String(path).replace(/^\.?\/+/, "").split("/").filter((p) => p !== "" && p !== ".");
    if (parts.length === 0 || parts.includes("..")) {
      skipped.push(`${path}: not a usable path`);
      continue;
    }
    if (parts.some((p) => ARCHIVE_JUNK.has(p))) continue;
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data instanceof Uint8Array ? data : new Uint8Array(data);
    if (bytes.length > MAX_FILE_BYTES) {
      skipped.push(`${path}: over ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
      continue;
    }
    files.push({ parts, bytes });
  }
  // Skill directories, shallowest first: a SKILL.md inside a skipped directory of another skill
  // (its node_modules/, .git/ ...) is not one, as discovery would not find it there.
  const dirs = files.filter((f) => isSkillFile(f.parts.at(-1))).map((f) => f.parts.slice(0, -1));
  const unique = [];
  for (const d of [...new Map(dirs.map((x) => [x.join("/"), x])).values()].sort((a, b) => a.length - b.length)) {
    const outer = nearest(unique, d);
    if (outer === undefined || !skippedBelow(d.slice(outer.length))) unique.push(d);
  }
  const targets = new Map(); // dir -> target name
  const used = new Set();
  for (const d of unique) {
    let base = d.at(-1);
    if (base === undefined) {
      const md = files.find((f) => f.parts.length === 1 && isSkillFile(f.parts[0]));
      base = sw.parseSkill(md.bytes, { includeBody: false }).skill?.name ?? "skill";
    }
    base = safeSegment(base);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}-${i}`;
    used.add(name);
    targets.set(d.join("/"), name);
  }
  const puts = new Map();
  let orphans = 0;
  for (const f of files) {
    const dir = nearest(unique, f.parts);
    if (dir === undefined) {
      orphans++;
      continue;
    }
    if (skippedBelow(f.parts.slice(dir.length, -1))) continue; // not a skill's file
    const key = `${ROOT}${targets.get(dir.join("/"))}/${f.parts.slice(dir.length).join("/")}`;
    if (!validKey(key)) {
      skipped.push(`${f.parts.join("/")}: not a valid storage key`);
      continue;
    }
    puts.set(key, f.bytes);
  }
  if (orphans > 0) skipped.push(`${plural(orphans, "file")} outside any skill folder`);
  if (puts.size > 0) {
    const prefixes = [...targets.values()].map((n) => `${ROOT}${n}/`);
    const stale = state.keys.filter((k) => prefixes.some((p) => k.key.startsWith(p)) && !puts.has(k.key)).map((k) => k.key);
    if (stale.length > 0) await sw.deleteKeys(state.storage, stale);
    await sw.putSkillFiles(state.storage, puts);
  }
  const result = { folders: targets.size, files: puts.size, skipped };
  if (!refresh) return result;
  await hooks.reload({ changed: true });
  // What came of the folders, counted as the list and the header count: loaded skills, and
  // SKILL.md files the core refused.
  return { ...result, ...skillCounts(skillEntries().entries, [...targets.values()].map((n) => `${ROOT}${n}/`)) };
}

/** Deletes every key; resolves to how many there were. */
export async function clearAll() {
  const keys = (await listAll("")).map((e) => e.key);
  await sw.deleteKeys(state.storage, keys);
  state.selected = null;
  state.session.clear();
  await hooks.reload({ changed: true });
  return keys.length;
}

/** The bundled examples, from the server's /examples/index.json. */
export async function loadExamples() {
  const index = await (await fetch("/examples/index.json")).json();
  const entries = [];
  await Promise.all(
    index.groups.flatMap(({ group, skills }) =>
      skills.flatMap(({ dir, files }) =>
        files.map(async ({ path }) => {
          const res = await fetch(`/examples/${group}/${dir}/${path.split("/").map(encodeURIComponent).join("/")}`);
          if (!res.ok) throw new Error(`examples/${group}/${dir}/${path}: HTTP ${res.status}`);
          entries.push({ path: `${dir}/${path}`, data: new Uint8Array(await res.arrayBuffer()) });
        }),
      ),
    ),
  );
  const r = await addFiles(entries);
  toast(`Loaded ${plural(r.skills, "example skill")}${refusedText(r)} (${plural(r.files, "file")})`);
}

// Drag and drop: folders are walked with the entries API; zips are unpacked.
function readEntries(reader) {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

/**
 * Every file under a dropped entry, as { path, file }. Inside a skill directory (one holding a
 * SKILL.md, or below one) the directories discovery skips are not entered.
 */
export async function walkEntry(entry, prefix, out, inSkill = false) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push({ path: prefix + entry.name, file });
  } else if (entry.isDirectory) {
    if (ARCHIVE_JUNK.has(entry.name) || (inSkill && sw.isSkippedDirectory(entry.name))) return;
    const reader = entry.createReader();
    const children = [];
    for (;;) {
      const batch = await readEntries(reader);
      if (batch.length === 0) break;
      children.push(...batch);
    }
    const skill = inSkill || children.some((c) => c.isFile && isSkillFile(c.name));
    for (const child of children) await walkEntry(child, `${prefix}${entry.name}/`, out, skill);
  }
}

async function filesToEntries(list) {
  const entries = [];
  for (const { path, file } of list) {
    if (/\.zip$/i.test(file.name) && !path.includes("/")) {
      entries.push(...(await zipEntries(file)));
    } else {
      entries.push({ path, data: new Uint8Array(await file.arrayBuffer()) });
    }
  }
  return entries;
}

async function zipEntries(file) {
  const files = (await sw.unzip(await file.arrayBuffer(), { fileBytes: MAX_FILE_BYTES })).map((f) => ({ path: f.path, data: f.bytes }));
  // A zip of one skill with SKILL.md at its top: the archive's name is the folder's.
  const atTop = files.some((f) => isSkillFile(f.path) && !f.path.includes("/"));
  const base = safeSegment(file.name.replace(/\.zip$/i, ""));
  return files.map((f) => ({ path: atTop ? `${base}/${f.path}` : f.path, data: f.data }));
}

/** Stores what a picker or a drop gave, and says what came of it. */
export async function addFromList(list, what) {
  const entries = await filesToEntries(list);
  const r = await addFiles(entries);
  const extra = r.skipped.length > 0 ? `; skipped ${r.skipped.length}: ${r.skipped.slice(0, 3).join("; ")}` : "";
  if (r.folders === 0) toast(`No SKILL.md in ${what}${extra}`, "error");
  else toast(`Added ${plural(r.skills, "skill")}${refusedText(r)} (${plural(r.files, "file")}) from ${what}${extra}`, r.skills === 0 ? "error" : undefined);
}

/** ", 1 SKILL.md refused" when the core refused some of what was added. */
function refusedText(r) {
  return r.refused > 0 ? `, ${r.refused} SKILL.md refused` : "";
}
