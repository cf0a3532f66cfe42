//! A skill's files from its store: reads the registry plans (every check made before a store
//! call) and carries out without holding the registry, one file or all of a skill's.

use super::*;

/// A file read the registry has planned: everything needed to do it without the registry.
pub struct FileRequest {
    name: String,
    path: String,
    key: String,
    storage: Rc<dyn Storage>,
    stats: Rc<CallStats>,
    /// Reading SKILL.md itself: the body is returned, frontmatter stripped.
    instructions: Option<ParseOptions>,
    /// Where the file is, as the model is shown it.
    location: String,
    /// Read at most this many bytes; a file longer than that is refused, not cut.
    pub max_bytes: Option<u32>,
    /// The size cap (`maxObjectBytes`): no read asks for more, whatever `max_bytes` says.
    cap: u32,
    /// The size the listing gave, when it gave one (a file listed above the cap is not read).
    listed_size: Option<u64>,
}

/// A listing of one skill's files the registry has planned.
pub struct FilesRequest {
    directory: String,
    storage: Rc<dyn Storage>,
    stats: Rc<CallStats>,
    page_size: u32,
}

/// Where a skill's files are, for a caller that reads them all (its content digest,
/// [`crate::consent`]): everything needed without the registry.
pub struct SkillSource {
    /// The skill's scope.
    pub scope: String,
    /// Its directory's key (empty for a skill at the store's root).
    pub directory: String,
    /// The key of its SKILL.md (as the store spells it).
    pub instructions: String,
    /// The store.
    pub storage: Rc<dyn Storage>,
    /// The registry's call counts.
    pub stats: Rc<CallStats>,
    /// Keys asked for per list call.
    pub page_size: u32,
    /// The size cap (`maxObjectBytes`), here for the skill's files together.
    pub max_bytes: u32,
}

/// The resources among the keys of a skill directory (relative to it): every file but SKILL.md,
/// the files of skills nested inside, hidden files and the contents of skipped directories.
pub fn resource_paths(rel: Vec<&str>) -> Vec<&str> {
    // Directories of nested skills; a key is inside one when one of its ancestors is.
    let nested: HashSet<&str> = rel.iter().filter_map(|k| k.strip_suffix("/SKILL.md")).collect();
    let in_nested = |k: &str| k.match_indices('/').any(|(i, _)| nested.contains(&k[..i]));
    rel.into_iter()
        .filter(|k| *k != "SKILL.md" && !in_nested(k))
        // Hidden files and the contents of skipped directories are not resources.
        .filter(|k| !k.split('/').any(crate::discover::is_skipped_dir))
        .collect()
}

/// A skill's files, relative to its directory, SKILL.md left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SkillFiles {
    /// The skill-relative paths, in lexicographic order.
    pub files: Vec<String>,
    /// False when the listing stopped before the end (there are more files than `files`).
    pub complete: bool,
    /// Why the listing failed, when it did.
    pub error: Option<Diagnostic>,
}

/// Why a read of a skill's file within a byte budget ([`SkillSource::read_capped`]) gave no bytes.
pub enum CappedRead {
    /// The file holds more than the bytes left.
    TooLarge,
    /// The store has no such object.
    Missing,
    /// The store call failed.
    Failed(crate::store::StorageError),
}

impl SkillSource {
    /// Reads `key` with at most `left` bytes (one more is asked for, which tells a file above
    /// the budget).
    pub async fn read_capped(&self, key: &str, left: u64) -> Result<Vec<u8>, CappedRead> {
        let ask = u32::try_from(left.saturating_add(1)).unwrap_or(u32::MAX);
        match crate::store::read_checked(&*self.storage, key, Some(ask), &self.stats).await {
            Ok(Some(b)) if b.len() as u64 > left => Err(CappedRead::TooLarge),
            Ok(Some(b)) => Ok(b),
            Ok(None) => Err(CappedRead::Missing),
            Err(e) => Err(CappedRead::Failed(e)),
        }
    }

    /// The keys below the skill's directory, listed until more than `most` are seen: the listing,
    /// and whether it stopped there.
    pub async fn list_files(&self, most: usize) -> Result<(crate::store::ListPage, bool), crate::store::StorageError> {
        list_below(&*self.storage, &self.prefix(), self.page_size, &self.stats, most).await
    }

    /// The skill's directory as a key prefix (`""` at the store's root).
    pub fn prefix(&self) -> String {
        directory_prefix(&self.directory)
    }
}

/// `directory` as a key prefix (`""` for the store's root).
fn directory_prefix(directory: &str) -> String {
    if directory.is_empty() {
        String::new()
    } else {
        format!("{directory}/")
    }
}

/// The keys below `prefix`, listed until more than `most` are seen: the listing, and whether it
/// stopped there.
async fn list_below(
    storage: &dyn Storage,
    prefix: &str,
    page_size: u32,
    stats: &CallStats,
    most: usize,
) -> Result<(crate::store::ListPage, bool), crate::store::StorageError> {
    let mut stopped = false;
    let listed = store::list_all(storage, prefix, page_size, stats, |e| {
        stopped = e.len() > most;
        stopped
    })
    .await?;
    Ok((listed, stopped))
}

/// A file result that refuses `path` of `name` with `d`, before any store call.
fn refused(name: &str, path: &str, d: Diagnostic) -> Box<FileResult> {
    Box::new(FileResult { name: name.to_string(), path: path.to_string(), error: Some(d), ..FileResult::default() })
}

impl SkillRegistry {
    /// Plans a read of `name`'s SKILL.md body (`rel_path` None) or of one of its files. Unknown
    /// skills and paths that leave the skill directory are answered here, before any store call.
    pub fn file_request(&self, name: &str, rel_path: Option<&str>) -> Result<FileRequest, Box<FileResult>> {
        let refuse = |path: &str, d: Diagnostic| refused(name, path, d);
        let Some(i) = self.winner(name) else {
            let names = report::names_line(self.winner_names());
            return Err(refuse(
                rel_path.unwrap_or("SKILL.md"),
                Diagnostic::error(codes::SKILL_UNKNOWN, format!("no skill named '{name}'; the skills are: {names}")),
            ));
        };
        self.request_for(i, name, rel_path)
    }

    /// Plans a read of `name`'s SKILL.md body or one of its files in `scope` (the skill that
    /// scope holds, shadowed or not). None when the scope holds no skill of that name.
    pub fn scoped_file_request(
        &self,
        scope: &str,
        name: &str,
        rel_path: Option<&str>,
    ) -> Option<Result<FileRequest, Box<FileResult>>> {
        let i = order::first_of(&self.scopes, &self.records, scope, name)?;
        Some(self.request_for(i, name, rel_path))
    }

    /// Reads `name`'s SKILL.md body (`rel_path` None) or one of its files in `scope`: its
    /// contents and where it is as the model is shown it. None when the scope holds no such
    /// skill, the path is refused, or the file cannot be read ([`SkillRegistry::read_file`] says why).
    pub async fn read_scoped_file(&self, scope: &str, name: &str, rel_path: Option<&str>) -> Option<ScopedFile> {
        let req = self.scoped_file_request(scope, name, rel_path)?.ok()?;
        req.fetch_scoped().await
    }

    fn request_for(&self, i: usize, name: &str, rel_path: Option<&str>) -> Result<FileRequest, Box<FileResult>> {
        let refuse = |path: &str, d: Diagnostic| refused(name, path, d);
        let Some(r) = self.records.get(i) else {
            return Err(refuse("SKILL.md", Diagnostic::error(codes::SKILL_UNKNOWN, format!("no skill '{name}'"))));
        };
        let Some(scope) = self.scopes.iter().find(|s| s.name == r.scope()) else {
            return Err(refuse(
                "SKILL.md",
                Diagnostic::error(codes::SCOPE_UNKNOWN, format!("scope '{}' is not configured", r.scope())),
            ));
        };
        let (path, key, instructions) = match rel_path {
            None => {
                let dir_name = r.directory().rsplit('/').next().filter(|d| !d.is_empty()).map(str::to_string);
                (
                    "SKILL.md".to_string(),
                    r.location().to_string(),
                    Some(ParseOptions { dir_name, mode: self.options.mode, ..ParseOptions::default() }),
                )
            }
            Some(rel) => match keys::resolve_in_skill(r.directory(), rel) {
                Ok(key) => (key[r.directory().len()..].trim_start_matches('/').to_string(), key, None),
                Err(e) => return Err(refuse(rel, Diagnostic::error(codes::PATH_INVALID, e.0))),
            },
        };
        Ok(FileRequest {
            name: name.to_string(),
            path,
            location: self.location_of(r.scope(), &key),
            key,
            storage: scope.storage.clone(),
            stats: self.stats.clone(),
            instructions,
            max_bytes: None,
            cap: self.options.max_object_bytes.max(1),
            listed_size: if rel_path.is_none() { r.size() } else { None },
        })
    }

    /// Plans a listing of `name`'s files.
    pub fn files_request(&self, name: &str) -> Option<FilesRequest> {
        let r = self.records.get(self.winner(name)?)?;
        let scope = self.scopes.iter().find(|s| s.name == r.scope())?;
        Some(FilesRequest {
            directory: r.directory().to_string(),
            storage: scope.storage.clone(),
            stats: self.stats.clone(),
            page_size: self.options.page_size.max(1),
        })
    }

    /// Where the files of the skill that wins `name` are, for reading them all.
    pub fn skill_source(&self, name: &str) -> Option<SkillSource> {
        let r = self.records.get(self.winner(name)?)?;
        let scope = self.scopes.iter().find(|s| s.name == r.scope())?;
        Some(SkillSource {
            scope: r.scope().to_string(),
            directory: r.directory().to_string(),
            instructions: r.location().to_string(),
            storage: scope.storage.clone(),
            stats: self.stats.clone(),
            page_size: self.options.page_size.max(1),
            max_bytes: self.options.max_object_bytes.max(1),
        })
    }

    /// The store of `scope`, when it is one of the registry's scopes.
    pub fn scope_storage(&self, scope: &str) -> Option<&Rc<dyn Storage>> {
        self.scopes.iter().find(|s| s.name == scope).map(|s| &s.storage)
    }

    /// Reads the SKILL.md body (frontmatter stripped) or a file of the skill.
    pub async fn read_file(&self, name: &str, rel_path: Option<&str>) -> FileResult {
        match self.file_request(name, rel_path) {
            Ok(req) => req.fetch().await,
            Err(refused) => *refused,
        }
    }
}

impl FilesRequest {
    /// Lists the skill directory (SKILL.md and files of skills nested inside left out), stopping
    /// once more than max(4 × `cap`, 1000) keys are known (`complete` is then false).
    pub async fn fetch(self, cap: usize) -> SkillFiles {
        let prefix = directory_prefix(&self.directory);
        // Enough to count a normal skill's files exactly; a huge directory is cut short.
        let limit = cap.saturating_mul(4).max(1000);
        match list_below(&*self.storage, &prefix, self.page_size, &self.stats, limit).await {
            Ok((page, stopped)) => {
                let rel: Vec<&str> = page.entries.iter().filter_map(|e| e.key.strip_prefix(&prefix)).collect();
                let files = resource_paths(rel).into_iter().map(str::to_string).collect();
                SkillFiles { files, complete: !stopped, error: None }
            }
            Err(e) => SkillFiles {
                files: Vec::new(),
                complete: false,
                error: Some(Diagnostic::error(
                    codes::STORAGE_LIST_FAILED,
                    format!("listing the skill's files failed: {e}"),
                )),
            },
        }
    }
}

impl FileRequest {
    /// Reads the whole SKILL.md, frontmatter kept.
    pub fn keep_frontmatter(mut self) -> Self {
        self.instructions = None;
        self
    }

    /// Does the read for `readScopedFile`: the contents and where the file is, or None.
    pub async fn fetch_scoped(self) -> Option<ScopedFile> {
        let path = self.location.clone();
        let got = self.fetch().await;
        let content = match (got.text, got.bytes) {
            (Some(t), _) => FileContent::Text(t),
            (None, Some(b)) => FileContent::Bytes(b),
            (None, None) => return None,
        };
        Some(ScopedFile { content, path })
    }

    /// Does the read; never fails (a failure is the result's `error`).
    pub async fn fetch(self) -> FileResult {
        let mut out = FileResult { name: self.name, path: self.path, ..FileResult::default() };
        let most = self.max_bytes.map_or(self.cap, |m| m.min(self.cap));
        if let Some(d) =
            self.listed_size.and_then(|s| store::limits::check_size(codes::FILE_TOO_LARGE, &out.path, s, self.cap))
        {
            out.error = Some(d);
            return out;
        }
        // One byte more than the most tells a file above it from one at it.
        let ask = Some(most.saturating_add(1));
        match store::read_checked(&*self.storage, &self.key, ask, &self.stats).await {
            Ok(Some(bytes)) if bytes.len() > most as usize => {
                out.size = bytes.len() as u64;
                out.error = Some(Diagnostic::error(
                    codes::FILE_TOO_LARGE,
                    format!("{} is larger than {most} bytes, the most this returns", out.path),
                ));
            }
            Err(e) => {
                out.error =
                    Some(Diagnostic::error(codes::STORAGE_READ_FAILED, format!("reading {} failed: {e}", out.path)))
            }
            Ok(None) => {
                out.error =
                    Some(Diagnostic::error(codes::FILE_NOT_FOUND, format!("the skill has no file {}", out.path)))
            }
            Ok(Some(bytes)) => {
                out.size = bytes.len() as u64;
                match self.instructions {
                    Some(opts) => {
                        let parsed = parse_skill(&bytes, &opts);
                        match parsed.skill.and_then(|s| s.body) {
                            Some(body) => out.text = Some(body),
                            None => {
                                out.error =
                                    Some(parsed.diagnostics.into_iter().find(|d| d.is_error()).unwrap_or_else(|| {
                                        Diagnostic::error(codes::SKILL_UNREADABLE, "the SKILL.md no longer parses")
                                    }))
                            }
                        }
                    }
                    // Text is UTF-8 without NUL bytes (a NUL is the usual sign of a binary file).
                    None if bytes.contains(&0) => out.bytes = Some(bytes),
                    None => match String::from_utf8(bytes) {
                        Ok(t) => out.text = Some(t),
                        Err(e) => out.bytes = Some(e.into_bytes()),
                    },
                }
            }
        }
        out
    }
}
