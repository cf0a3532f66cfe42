// The Worker's writes to its bucket: an upload (multipart/form-data or a zip) put in place of a
// skill's files, all or nothing; a skill's directory deleted; and after each change, one at a time
// within an isolate, the registry refreshed and its snapshot written again.
import { SkillRegistry, assertKey, memoryStorage, parseSkill, unzip, ZipError } from "skillwasm";
import { HttpError, json, readCapped } from "./http.js";

const MiB = 1024 * 1024;
const LIMITS = {
  fileBytes: 1 * MiB, // one file of an upload
  uploadBytes: 5 * MiB, // all files of an upload together
  files: 500, // files in one upload
};
// Room for the multipart boundaries and part headers around the files.
const ENVELOPE_BYTES = 256 * 1024;

/** Changes to the bucket (uploads, deletes, refreshes) run one after another within an isolate. */
let changes = Promise.resolve();

/** Writes the registry's snapshot to the bucket; its etag. */
export async function writeSnapshot(bucket, config, registry) {
  const written = await bucket.put(config.snapshotKey, registry.snapshot(), {
    httpMetadata: { contentType: "application/octet-stream" },
  });
  return written?.etag ?? null;
}

/** [{ path, bytes }] from a multipart/form-data body: every file part, its filename the path. */
async function multipartFiles(request) {
  const body = await readCapped(request, LIMITS.uploadBytes + ENVELOPE_BYTES);
  let form;
  try {
    form = await new Response(body, { headers: { "content-type": request.headers.get("content-type") } }).formData();
  } catch (e) {
    throw new HttpError(400, `not a multipart/form-data body: ${e?.message ?? e}`);
  }
  const files = [];
  for (const [, value] of form.entries()) {
    if (typeof value === "string") continue; // plain fields are ignored
    files.push({ path: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return files;
}

/** A folder picked in a browser arrives as `<folder>/SKILL.md` ...: drop that common first segment. */
function stripFolder(files) {
  if (files.some((f) => f.path === "SKILL.md")) return files;
  const first = files[0]?.path.split("/")[0];
  if (first && files.every((f) => f.path.startsWith(`${first}/`))) {
    return files.map((f) => ({ ...f, path: f.path.slice(first.length + 1) }));
  }
  return files;
}

function checkUpload(files) {
  if (files.length === 0) throw new HttpError(400, "no files in the upload");
  if (files.length > LIMITS.files) throw new HttpError(413, `more than ${LIMITS.files} files`);
  const seen = new Set();
  let total = 0;
  for (const f of files) {
    try {
      assertKey(f.path);
    } catch (e) {
      throw new HttpError(400, e.message, { path: f.path });
    }
    if (seen.has(f.path)) throw new HttpError(400, `${f.path} is given twice`, { path: f.path });
    seen.add(f.path);
    if (f.bytes.byteLength > LIMITS.fileBytes) {
      throw new HttpError(413, `${f.path} is larger than ${LIMITS.fileBytes} bytes`, { path: f.path });
    }
    total += f.bytes.byteLength;
  }
  if (total > LIMITS.uploadBytes) throw new HttpError(413, `the files add up to more than ${LIMITS.uploadBytes} bytes`);
}

/** Every key under prefix. */
async function keysUnder(bucket, prefix) {
  const keys = [];
  let cursor;
  do {
    const page = await bucket.list({ prefix, cursor });
    for (const o of page.objects) keys.push(o.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/**
 * Runs a change to the bucket, then refreshes the registry and writes a new snapshot; changes
 * run one after another within an isolate, so each refresh and snapshot sees a change whole.
 */
export function serially(s, change) {
  const run = changes.then(async () => {
    const out = (await change?.()) ?? {};
    s.published = null; // the discovery index is published again on its next request
    const report = await s.registry.refresh();
    s.snapshotEtag = await writeSnapshot(s.bucket, s.config, s.registry);
    return { ...out, report };
  });
  changes = run.catch(() => {});
  return run;
}

export async function remove(s, rawName) {
  const name = dirName(rawName);
  const dir = `${s.config.root}${name}/`;
  const { removed, report } = await serially(s, async () => {
    const removed = await keysUnder(s.bucket, dir);
    for (const key of removed) await s.bucket.delete(key);
    return { removed };
  });
  if (removed.length === 0) return json({ error: `no skill directory ${name}`, refresh: report }, 404);
  return json({ directory: name, removed: removed.map((k) => k.slice(dir.length)), refresh: report });
}

/** The `<dir>` of /skills/<dir>: one valid key segment. */
function dirName(raw) {
  let name;
  try {
    name = decodeURIComponent(raw);
    assertKey(name);
  } catch (e) {
    throw new HttpError(400, `not a skill directory name: ${e?.message ?? e}`);
  }
  if (name.includes("/")) throw new HttpError(400, "the skill directory name must be one path segment");
  return name;
}

/**
 * Puts `files` under `dir` in place of what is there, all or nothing: the previous files are read
 * first, and when a put fails every key is put back as it was (the new keys deleted), so a failed
 * upload never leaves the skill half new and half old. Returns the keys removed.
 */
async function replaceSkill(bucket, dir, files) {
  const keep = new Set(files.map((f) => dir + f.path));
  const previous = [];
  let held = 0;
  for (const key of await keysUnder(bucket, dir)) {
    const obj = await bucket.get(key);
    if (obj === null) continue;
    const bytes = new Uint8Array(await obj.arrayBuffer());
    held += bytes.byteLength;
    if (held > 4 * LIMITS.uploadBytes) throw new HttpError(409, `the stored ${dir} is too large to replace safely; delete it first`);
    previous.push({ key, bytes });
  }
  try {
    for (const f of files) await bucket.put(dir + f.path, f.bytes);
  } catch (e) {
    const old = new Set(previous.map((p) => p.key));
    for (const key of keep) if (!old.has(key)) await bucket.delete(key).catch(() => {});
    for (const p of previous) await bucket.put(p.key, p.bytes);
    throw new HttpError(503, `the upload could not be stored (${e?.message ?? e}); the previous version is unchanged`);
  }
  // Files of an earlier upload of this skill that this one no longer has.
  const stale = previous.map((p) => p.key).filter((k) => !keep.has(k));
  for (const key of stale) await bucket.delete(key);
  return { stale };
}

/**
 * A SKILL.md deeper in the upload is a skill of its own to discovery, found by its own name: an
 * upload to /skills/<name> may hold no skill but <name>, or `/skills/zzz` could serve
 * `deploy-prod`.
 */
function checkNestedSkills(name, files) {
  for (const f of files) {
    const parts = f.path.split("/");
    if (parts.length < 2 || (parts.at(-1) !== "SKILL.md" && parts.at(-1) !== "skill.md")) continue;
    const parsed = parseSkill(f.bytes, { dirName: parts.at(-2), includeBody: false });
    if (parsed.skill === null || parsed.skill.name === name) continue; // not another skill
    throw new HttpError(422, `${f.path} is the skill '${parsed.skill.name}'; an upload to ${name} holds no skill but '${name}'`, { path: f.path });
  }
}

/**
 * An upload as the core sees it, over a store in memory: its content digest (the one definition)
 * and, unless `config.vet` is "off", the vetting of every file (nothing is run), with the refusal
 * the core decides at `config.vetSeverity`.
 */
async function inspectUpload(name, files, config) {
  const storage = memoryStorage(Object.fromEntries(files.map((f) => [`${name}/${f.path}`, f.bytes])));
  const registry = await SkillRegistry.discover({ scopes: [{ name: "upload", storage, roots: [""], trusted: true }], vet: "off" });
  try {
    const d = await registry.contentDigest(name);
    if (d.digest === undefined) throw new HttpError(422, `the upload's content digest could not be computed: ${d.error?.message}`);
    const report = config.vet === "off" ? null : await registry.vet(name, { severity: config.vetSeverity });
    return { digest: d.digest, report };
  } finally {
    registry.free();
  }
}

export async function upload(s, request, rawName) {
  const name = dirName(rawName);
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  let files;
  if (type.startsWith("multipart/form-data")) {
    files = await multipartFiles(request);
  } else if (type.startsWith("application/zip") || type.startsWith("application/x-zip-compressed")) {
    const zip = await readCapped(request, LIMITS.uploadBytes + ENVELOPE_BYTES);
    try {
      files = await unzip(zip, LIMITS);
    } catch (e) {
      if (e instanceof ZipError) throw new HttpError(e.status, e.message);
      throw e;
    }
  } else {
    throw new HttpError(415, "send the skill as multipart/form-data (each file's filename its path in the skill) or as application/zip; SKILL.md is required");
  }
  files = stripFolder(files);
  checkUpload(files);
  const skillMd = files.find((f) => f.path === "SKILL.md");
  if (!skillMd) throw new HttpError(400, "the upload has no SKILL.md at its top level");
  const parsed = parseSkill(skillMd.bytes, { dirName: name, includeBody: false });
  if (parsed.skill === null) {
    throw new HttpError(422, "SKILL.md has no usable skill", { diagnostics: parsed.diagnostics });
  }
  if (parsed.skill.name !== name) {
    throw new HttpError(422, `the skill is named '${parsed.skill.name}', not '${name}' like its directory`, { diagnostics: parsed.diagnostics });
  }
  checkNestedSkills(name, files);
  // `PDF` or Cyrillic `сор` beside `pdf` or `cop`: discovery would hide it, so it is not stored.
  const alike = s.registry.lookalike(name);
  if (alike !== null) {
    throw new HttpError(409, `the name '${name}' looks like the skill '${alike}' here, which it would pass for; choose another name`, { lookalike: alike });
  }
  // A client that pinned the skill says which content it sends: anything else is refused.
  const { digest, report: vetted } = await inspectUpload(name, files, s.config);
  const expected = request.headers.get("x-skill-digest");
  if (expected !== null && expected !== digest) {
    throw new HttpError(412, `the upload's content digest is ${digest}, not ${expected} as X-Skill-Digest says`, { digest, expected });
  }
  // Vetted before anything is written: what hides instructions, sends secrets away or changes
  // the machine is not served to the agents that read this store.
  if (s.config.vet === "refuse" && (vetted.refusal || vetted.error)) {
    const why = vetted.refusal ?? vetted.error;
    throw new HttpError(422, `the upload is refused by vetting: ${why.message}`, { refusal: why, findings: vetted.findings });
  }

  const dir = `${s.config.root}${name}/`;
  const { stale, report } = await serially(s, () => replaceSkill(s.bucket, dir, files));
  return json({
    name: parsed.skill.name,
    directory: name,
    digest,
    description: parsed.skill.description,
    files: files.map((f) => ({ path: f.path, size: f.bytes.byteLength })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    removed: stale.map((k) => k.slice(dir.length)),
    diagnostics: parsed.diagnostics,
    findings: vetted?.findings ?? [],
    // With VET = "report", a vetting that could not read every file says so (vet-incomplete).
    ...(vetted?.error ? { vetError: vetted.error } : {}),
    refresh: report,
  }, 201);
}
