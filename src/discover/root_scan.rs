//! The walk over one root's listing: which keys are skill files, which directories hold a
//! `.gitignore`, and the bounds (directory cap, depth) that stop the scan, in one pass over keys
//! that come in key order.

use super::gitignore::GITIGNORE;
use super::record::directory_of;
use super::rules::{is_skipped_dir_bytes, skill_file_kind};
use super::types::DiscoverOptions;
use crate::store::{digest, ListEntry};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A skill file found in a listing.
pub(super) struct Found {
    /// Its own key (its directory is derived from it: [`Found::directory`]).
    pub location: String,
    /// The listed size.
    pub size: Option<u64>,
    /// The listed etag.
    pub etag: Option<String>,
    /// A lowercase `skill.md`.
    pub lowercase: bool,
}

impl Found {
    /// The key of its directory.
    pub fn directory(&self) -> &str {
        directory_of(&self.location)
    }
}

/// Walks the listed keys of one root, keeping the skill directories and the scan bounds.
pub(super) struct RootScan<'a> {
    root: &'a str,
    opts: &'a DiscoverOptions,
    /// The directories counted so far, by [`hash_dir`] (8 bytes each, however long the key).
    dirs: HashSet<u64, BuildHasherDefault<Prehashed>>,
    /// The skill files found: in listing order while the listing runs, then (see
    /// [`RootScan::finish`]) one per directory, in directory order.
    pub found: Vec<Found>,
    /// Skill files deeper than `max_depth`, not loaded.
    pub too_deep: Vec<String>,
    /// Set when the directory cap stopped the scan.
    pub cap_hit: bool,
    /// Directories (keys without the trailing `/`) that hold a listed `.gitignore`.
    pub gitignores: Vec<String>,
    /// The directory part (with its `/`) of the last key whose directories were counted.
    last_parent: String,
    /// Whether a directory of `last_parent` is one discovery skips.
    last_parent_skipped: bool,
}

/// A directory key's hash, for counting distinct directories without holding their keys (the
/// store's keys are not secret, and a collision only costs precision). Two directories that
/// collide count once: the cap is then reached one directory later.
fn hash_dir(directory: &str) -> u64 {
    digest::bytes(0, directory.as_bytes())
}

/// The hasher of a set of [`hash_dir`] values: they are hashes already, used as they are.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl<'a> RootScan<'a> {
    /// A scan of the listing of `root` (a list prefix), under the bounds of `opts`.
    pub fn new(root: &'a str, opts: &'a DiscoverOptions) -> Self {
        RootScan {
            root,
            opts,
            dirs: HashSet::default(),
            found: Vec::new(),
            too_deep: Vec::new(),
            cap_hit: false,
            gitignores: Vec::new(),
            last_parent: String::new(),
            last_parent_skipped: false,
        }
    }

    /// Ends the listing: one skill file per directory (`SKILL.md` over `skill.md`, else the first
    /// listed), in directory order. Keys come in key order, so the directories nearly do: the
    /// sort finds the runs already in order. Through the crate's one sort routine (a sort of its
    /// own for `Found` took about 4 KB of the module every host loads).
    pub fn finish(&mut self) {
        crate::sort::sort_by(&mut self.found, |a, b| a.directory().cmp(b.directory()));
        self.found.dedup_by(|later, kept| {
            let same = later.directory() == kept.directory();
            if same && kept.lowercase && !later.lowercase {
                std::mem::swap(kept, later);
            }
            same
        });
    }

    /// Takes the entries of one page, and the directories it names (a listing of only some
    /// files), in key order; true when the directory cap is hit (stop listing).
    pub fn feed(&mut self, entries: Vec<ListEntry>, directories: Vec<String>) -> bool {
        // A directory key (`a/b/`) counts its directories as a file in it would, and is no file.
        let directories = directories.into_iter().map(|key| ListEntry { key, size: None, etag: None, digest: None });
        for e in merged(entries, directories) {
            let Some(rel) = e.key.strip_prefix(self.root) else { continue };
            let file_start = rel.as_bytes().iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
            let (parent, file) = rel.split_at_checked(file_start).unwrap_or_default();
            // Keys come in order, so most share the directory of the key before: its directories
            // were checked and counted already.
            if parent != self.last_parent {
                self.last_parent_skipped = parent.as_bytes().split(|&b| b == b'/').any(is_skipped_dir_bytes);
                if !self.last_parent_skipped && self.count_directories(parent) {
                    return true;
                }
                parent.clone_into(&mut self.last_parent);
            }
            if self.last_parent_skipped {
                continue;
            }
            if file == GITIGNORE {
                self.gitignores.push(directory_of(&e.key).to_string());
                continue;
            }
            let Some(lowercase) = skill_file_kind(file, self.opts.accept_lowercase_skill_md) else { continue };
            if parent.bytes().filter(|&b| b == b'/').count() > self.opts.max_depth as usize {
                self.too_deep.push(e.key);
                continue;
            }
            self.found.push(Found { location: e.key, size: e.size, etag: e.etag, lowercase });
        }
        false
    }

    /// Counts every directory of `parent` (a key's directories below the root, each followed by
    /// its `/`), so that the cap bounds the work done; true when the cap is hit.
    fn count_directories(&mut self, parent: &str) -> bool {
        let slashes = parent.bytes().enumerate().filter(|&(_, b)| b == b'/').map(|(end, _)| end);
        for end in slashes {
            let path = hash_dir(parent.get(..end).unwrap_or_default());
            if !self.dirs.contains(&path) {
                if self.dirs.len() >= self.opts.max_directories as usize {
                    self.cap_hit = true;
                    return true;
                }
                self.dirs.insert(path);
            }
        }
        false
    }
}

/// The entries of `a` and `b` (each in key order) in one key order.
fn merged(a: Vec<ListEntry>, b: impl Iterator<Item = ListEntry>) -> impl Iterator<Item = ListEntry> {
    let mut a = a.into_iter().peekable();
    let mut b = b.peekable();
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if y.key < x.key => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(keys: &[&str]) -> Vec<ListEntry> {
        keys.iter()
            .map(|k| ListEntry { key: k.to_string(), size: Some(1), etag: Some(format!("e-{k}")), digest: None })
            .collect()
    }

    fn found(scan: &RootScan<'_>) -> Vec<(String, String)> {
        scan.found.iter().map(|f| (f.directory().to_string(), f.location.clone())).collect()
    }

    #[test]
    fn one_file_per_directory_in_directory_order_skill_md_first() {
        let opts = DiscoverOptions { accept_lowercase_skill_md: true, ..DiscoverOptions::default() };
        let mut scan = RootScan::new("r/", &opts);
        // Key order puts `a-b/` before `a/`; a store out of order lists skill.md before SKILL.md.
        assert!(!scan.feed(entries(&["r/a-b/skill.md", "r/a/skill.md", "r/a/SKILL.md", "r/c/skill.md"]), Vec::new()));
        scan.finish();
        let want = [("r/a", "r/a/SKILL.md"), ("r/a-b", "r/a-b/skill.md"), ("r/c", "r/c/skill.md")];
        assert_eq!(found(&scan), want.map(|(d, l)| (d.to_string(), l.to_string())));
        assert_eq!(scan.found[0].etag.as_deref(), Some("e-r/a/SKILL.md"));
        assert!(!scan.found[0].lowercase && scan.found[1].lowercase);
    }

    #[test]
    fn skipped_directories_gitignores_and_depth() {
        let opts = DiscoverOptions { max_depth: 2, ..DiscoverOptions::default() };
        let mut scan = RootScan::new("r/", &opts);
        let keys = [
            "r/.git/x/SKILL.md",
            "r/a/.gitignore",
            "r/a/SKILL.md",
            "r/a/b/c/SKILL.md",
            "r/node_modules/p/SKILL.md",
            "r/x/SKILL.md",
            "r/x/skill.md",
        ];
        scan.feed(entries(&keys), Vec::new());
        scan.finish();
        assert_eq!(found(&scan), [("r/a", "r/a/SKILL.md"), ("r/x", "r/x/SKILL.md")].map(|(d, l)| (d.into(), l.into())));
        assert_eq!(scan.gitignores, ["r/a"]);
        assert_eq!(scan.too_deep, ["r/a/b/c/SKILL.md"]);
        assert!(!scan.cap_hit);
    }

    #[test]
    fn the_directory_cap_counts_each_directory_once_and_stops_the_scan() {
        let opts = DiscoverOptions { max_directories: 3, ..DiscoverOptions::default() };
        let mut scan = RootScan::new("r/", &opts);
        // a, a/b and c: three directories, however many keys name them.
        assert!(!scan.feed(entries(&["r/a/1.md", "r/a/b/2.md", "r/a/b/3.md", "r/a/4.md"]), vec!["r/c/".into()]));
        assert!(!scan.cap_hit);
        assert!(scan.feed(entries(&["r/d/SKILL.md"]), Vec::new()), "a fourth directory hits the cap");
        assert!(scan.cap_hit);
        assert!(scan.found.is_empty());
    }
}
