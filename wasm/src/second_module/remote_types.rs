//! The TypeScript declarations of the discovery index's values (an index read, an artifact
//! unpacked, a publication), which the index functions and `publishRegistry` return.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_REMOTE: &'static str = r#"
/** One usable entry of a discovery index (`parseSkillsIndex`). */
export interface IndexSkill {
  name: string;
  /** v0.2.0: `skill-md` or `archive`; v0.1.0: `files`. */
  type: "skill-md" | "archive" | "files";
  description: string;
  /** Absolute, resolved against the index URL. */
  url: string;
  /** `sha256:<hex>` of the artifact's bytes; null for v0.1.0. */
  digest: string | null;
  /** v0.1.0 only: every file of the skill. */
  files: { path: string; url: string }[];
}
/** What a discovery index says. */
export interface ParsedIndex { version: "0.2.0" | "0.1.0" | null; skills: IndexSkill[]; diagnostics: Diagnostic[] }
/** Which origins a network store may request (`parseSkillsIndex`, `checkRequestUrl`). */
export interface OriginOptions {
  /** A URL on the store's home origin, the only one that gets the host's headers (`parseSkillsIndex`: default the index URL). */
  origin?: string;
  /** Origins (`scheme://host[:port]`) the store may also request, without the host's headers. */
  allowOrigins?: string[];
  /** `checkRequestUrl`: the URL that answered with a redirect; the url (its Location) resolves against it. */
  base?: string;
  /** `checkRequestUrl`: which redirect of the request this is (1 for the first; more than 5 is refused). */
  redirects?: number;
}
/** What `checkRequestUrl` decides: the URL to request and whether the host's headers go with it, or why not. */
export type RequestTarget = { url: string; credentials: boolean; error?: undefined } | { error: Diagnostic; url?: undefined };
/** The options of `unpackSkillArtifact`. */
export interface UnpackOptions {
  type: "skill-md" | "archive";
  /** The index's digest; required unless `unverified` (v0.1.0 files have none). */
  digest?: string;
  unverified?: boolean;
  /** The index entry's name: a SKILL.md that names another skill is refused (`artifact-name-mismatch`). */
  name?: string;
  maxArtifactBytes?: number;
  maxSkillBytes?: number;
  maxEntries?: number;
}
/** A skill's files from its artifact, or (empty) why there are none. */
export interface UnpackedSkill { files: { path: string; bytes: Uint8Array }[]; diagnostics: Diagnostic[] }
/** One artifact to serve beside the index. */
export interface PublishedArtifact { path: string; contentType: string; digest: string; bytes: Uint8Array }
/** An index (`index.json`'s bytes) and its artifacts. */
export interface PublishedIndex { index: Uint8Array; artifacts: PublishedArtifact[]; diagnostics: Diagnostic[] }
"#;
