//! Fitting the catalog to its budget without rendering it more than once: each entry is written
//! once (and once more per step of the search for a description cap, only when its description
//! is longer than the cap tried), its size is counted once, and a catalog's size is its frame's
//! plus its entries' ([`TokenCount`] adds up). Dropping skills then takes them off a sorted list
//! and subtracts their size; the catalog is assembled from the entries that are left, once.

use super::format::{assemble, entry, frame, Item};
use super::{CatalogOptions, NameList};
use crate::text::TokenCount;
use std::collections::{HashMap, HashSet};

/// What fitting decided: the catalog's text (None when no skill fits), its skills in order, and
/// the skills whose description was cut or that were dropped.
pub(super) struct Fitted {
    pub(super) text: Option<String>,
    pub(super) skills: Vec<String>,
    pub(super) shortened: Vec<String>,
    pub(super) dropped: NameList,
}

/// The sizes of a catalog of some entries: what the frame adds, given how many entries there are
/// and how many line breaks end the last one (removed where the format trims its end).
struct Sizes {
    head_tail: TokenCount,
    separator: TokenCount,
    trim_end: bool,
}

impl Sizes {
    fn of(opts: &CatalogOptions) -> Sizes {
        let f = frame(opts.format);
        Sizes {
            head_tail: TokenCount::of(f.head) + TokenCount::of(f.tail),
            separator: TokenCount::of(f.separator),
            trim_end: f.trim_end,
        }
    }

    /// The size of a catalog of `count` entries whose sizes add up to `entries`, the last of
    /// which ends in `last_breaks` line breaks.
    fn total(&self, entries: TokenCount, count: u64, last_breaks: u64) -> TokenCount {
        let separators = count.saturating_sub(1);
        let mut t = self.head_tail + entries;
        t.ascii += self.separator.ascii * separators;
        t.other += self.separator.other * separators;
        if self.trim_end && count > 0 {
            t.ascii = t.ascii.saturating_sub(last_breaks);
        }
        t
    }
}

fn fits(t: TokenCount, opts: &CatalogOptions) -> bool {
    opts.budget_chars.is_none_or(|b| t.ascii + t.other <= u64::from(b))
        && opts.budget_tokens.is_none_or(|b| t.tokens().min(u64::from(u32::MAX)) <= u64::from(b))
}

/// Whether the names alone fit the budget (every entry holds its skill's name): counted until the
/// first name that takes them past it, so at 100,000 skills and a budget of a few thousand tokens
/// a few thousand names are read, not all.
fn names_fit<'a>(sizes: &Sizes, names: impl Iterator<Item = &'a str>, opts: &CatalogOptions) -> bool {
    if opts.budget_chars.is_none() && opts.budget_tokens.is_none() {
        return true;
    }
    let mut sum = TokenCount::default();
    for (k, name) in names.enumerate() {
        sum = sum + TokenCount::of(name);
        // The size only grows with each name and its separator: once past, always past.
        if !fits(sizes.total(sum, k as u64 + 1, 0), opts) {
            return false;
        }
    }
    true
}

fn trailing_breaks(s: &str) -> u64 {
    s.bytes().rev().take_while(|&b| b == b'\n').count() as u64
}

fn sum(sizes: impl Iterator<Item = TokenCount>) -> TokenCount {
    sizes.fold(TokenCount::default(), |a, b| a + b)
}

/// Fits `items` (descriptions on one line, in catalog order) to the budget of `opts`: first the
/// largest description cap that fits (not below `min_description_chars`), then, while it still
/// does not fit, drops the least important skills (last in `priority`, or not in it, last name
/// first). `truncate` cuts a description to a cap.
pub(super) fn fit(items: Vec<Item<'_>>, opts: &CatalogOptions, truncate: impl Fn(&str, usize) -> String) -> Fitted {
    let format = opts.format;
    let sizes = Sizes::of(opts);
    // Every entry holds its skill's name: when the names alone overflow the budget, no cap fits
    // every skill and most are dropped, which the skills kept decide alone.
    if !names_fit(&sizes, items.iter().map(|i| i.name), opts) {
        let floor = floor_of(opts);
        let long = |i: usize| items[i].description.chars().count() > floor;
        let entry_at_floor = |i: usize| at_floor(&items[i], floor, opts, &truncate);
        return fit_few(items.len(), &|i| items[i].name, false, &long, &entry_at_floor, opts, &sizes);
    }
    let mut entries: Vec<String> = items.iter().map(|i| entry(i, format)).collect();
    let mut costs: Vec<TokenCount> = entries.iter().map(|e| TokenCount::of(e)).collect();
    let n = items.len();
    let last_breaks =
        |entries: &[String], last: Option<usize>| last.and_then(|l| entries.get(l)).map_or(0, |e| trailing_breaks(e));
    let names = |keep: &dyn Fn(usize) -> bool| -> Vec<String> {
        items.iter().enumerate().filter(|(i, _)| keep(*i)).map(|(_, i)| i.name.to_string()).collect()
    };
    let all = sizes.total(sum(costs.iter().copied()), n as u64, last_breaks(&entries, n.checked_sub(1)));
    if fits(all, opts) {
        let text = assemble(entries.iter().map(String::as_str), format);
        return Fitted {
            text: Some(text),
            skills: names(&|_| true),
            shortened: Vec::new(),
            dropped: NameList::default(),
        };
    }

    // 1. Cut the longest descriptions: the largest cap that fits, not below the floor.
    let lengths: Vec<usize> = items.iter().map(|i| i.description.chars().count()).collect();
    let floor = opts.min_description_chars.max(8) as usize;
    let longest = lengths.iter().copied().max().unwrap_or(0);
    let cut = |i: usize, cap: usize| {
        let item = &items[i];
        let shorter = Item { name: item.name, description: truncate(&item.description, cap), location: item.location };
        entry(&shorter, format)
    };
    let size_at = |cap: usize| {
        let mut total = TokenCount::default();
        let mut last = 0;
        for i in 0..n {
            if lengths[i] <= cap {
                total = total + costs[i];
                last = if i + 1 == n { trailing_breaks(&entries[i]) } else { last };
            } else {
                let e = cut(i, cap);
                total = total + TokenCount::of(&e);
                last = if i + 1 == n { trailing_breaks(&e) } else { last };
            }
        }
        sizes.total(total, n as u64, last)
    };
    // The size grows with the cap: when the floor does not fit, no cap does (the search would end
    // there), and skills are dropped below. One pass instead of one per step of the search.
    let (mut lo, mut hi) = (floor, longest.max(floor));
    if !fits(size_at(floor), opts) {
        hi = floor;
    }
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(size_at(mid), opts) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    for i in 0..n {
        if lengths[i] > lo {
            entries[i] = cut(i, lo);
            costs[i] = TokenCount::of(&entries[i]);
        }
    }
    let mut shortened = names(&|i| lengths[i] > lo);

    // 2. Drop skills, least important first, until it fits.
    let (victims, _) = expendable_first(n, &|i| items[i].name, false, opts);
    let mut kept = vec![true; n];
    let mut total = sum(costs.iter().copied());
    let mut count = n as u64;
    let mut last = n.checked_sub(1);
    let mut dropped = NameList::default();
    for v in victims {
        if fits(sizes.total(total, count, last_breaks(&entries, last)), opts) {
            break;
        }
        kept[v] = false;
        total = TokenCount { ascii: total.ascii - costs[v].ascii, other: total.other - costs[v].other };
        count -= 1;
        while let Some(l) = last.filter(|&l| !kept[l]) {
            last = l.checked_sub(1);
        }
        dropped.push(items[v].name);
    }
    let gone: HashSet<&str> = dropped.iter().collect();
    shortened.retain(|s| !gone.contains(s.as_str()));
    if count == 0 {
        return Fitted { text: None, skills: Vec::new(), shortened, dropped };
    }
    let text = assemble(entries.iter().zip(&kept).filter(|(_, k)| **k).map(|(e, _)| e.as_str()), format);
    Fitted { text: Some(text), skills: names(&|i| kept[i]), shortened, dropped }
}

/// The least description cap a catalog cuts to.
fn floor_of(opts: &CatalogOptions) -> usize {
    opts.min_description_chars.max(8) as usize
}

/// The entry of `item`, its description cut to `floor` when longer.
fn at_floor(item: &Item<'_>, floor: usize, opts: &CatalogOptions, truncate: &dyn Fn(&str, usize) -> String) -> String {
    if item.description.chars().count() > floor {
        let cut = Item { name: item.name, description: truncate(&item.description, floor), location: item.location };
        entry(&cut, opts.format)
    } else {
        entry(item, opts.format)
    }
}

/// The entries' indexes (of `n`, named by `name_of`), the most expendable first: the last in
/// `priority` (or not in it), then the last name, then the later entry; and whether the entries
/// come in name order (`in_name_order` says they do; else their names are compared).
fn expendable_first<'a>(
    n: usize,
    name_of: &dyn Fn(usize) -> &'a str,
    in_name_order: bool,
    opts: &CatalogOptions,
) -> (Vec<usize>, bool) {
    let mut victims: Vec<usize> = (0..n).collect();
    // A registry lists its skills by name: then an entry's place orders it as its name does,
    // and the names need not be compared n log n times (at 100,000 skills most of a catalog's
    // time); with no priority, the order is the entries' own, reversed.
    let by_name = in_name_order || (1..n).all(|i| name_of(i - 1) <= name_of(i));
    if by_name && opts.priority.is_empty() {
        victims.reverse();
        return (victims, by_name);
    }
    let mut importance: HashMap<&str, usize> = HashMap::with_capacity(opts.priority.len());
    for (rank, p) in opts.priority.iter().enumerate() {
        importance.entry(p.as_str()).or_insert(rank);
    }
    // Each skill's rank looked up once, not twice a comparison.
    let ranks: Vec<usize> = (0..n).map(|i| importance.get(name_of(i)).copied().unwrap_or(usize::MAX)).collect();
    if by_name {
        crate::sort::sort_by(&mut victims, |&a, &b| (ranks[b], b).cmp(&(ranks[a], a)));
    } else {
        crate::sort::sort_by(&mut victims, |&a, &b| (ranks[b], name_of(b), b).cmp(&(ranks[a], name_of(a), a)));
    }
    (victims, by_name)
}

/// Of the entries `kept` (indexes, ascending), those no dropped entry shares a name with: in
/// name order such an entry is beside its namesakes, else the dropped names are looked up among
/// the kept ones (never a set of every dropped name).
fn kept_without_dropped_namesake<'a>(
    n: usize,
    kept: &[usize],
    by_name: bool,
    name_of: &dyn Fn(usize) -> &'a str,
) -> Vec<usize> {
    let mut is_kept = vec![false; n];
    for &i in kept {
        if let Some(k) = is_kept.get_mut(i) {
            *k = true;
        }
    }
    if by_name {
        let dropped_beside = |i: usize| {
            let name = name_of(i);
            let before = (0..i).rev().take_while(|&j| name_of(j) == name);
            let after = (i + 1..n).take_while(|&j| name_of(j) == name);
            before.chain(after).any(|j| !is_kept[j])
        };
        return kept.iter().copied().filter(|&i| !dropped_beside(i)).collect();
    }
    let kept_names: HashSet<&str> = kept.iter().map(|&i| name_of(i)).collect();
    let gone: HashSet<&str> =
        (0..n).filter(|&i| !is_kept[i]).map(name_of).filter(|name| kept_names.contains(name)).collect();
    kept.iter().copied().filter(|&i| !gone.contains(name_of(i))).collect()
}

/// [`fit`] when the skills' names alone overflow the budget, with the same result for a
/// fraction of the work: no description cap fits every skill, so every description longer than
/// the floor is cut to it, and the skills kept are the most important ones that fit together
/// (dropping the least important until the rest fits keeps exactly those, as a catalog of fewer
/// entries is never larger). Only the skills kept, and the first that does not fit, are made
/// into entries (`entry_at_floor`) and asked whether their description is `long`: a catalog of
/// 100,000 skills that shows a hundred writes a hundred and one.
fn fit_few<'a>(
    n: usize,
    name_of: &dyn Fn(usize) -> &'a str,
    in_name_order: bool,
    long: &dyn Fn(usize) -> bool,
    entry_at_floor: &dyn Fn(usize) -> String,
    opts: &CatalogOptions,
    sizes: &Sizes,
) -> Fitted {
    let (victims, by_name) = expendable_first(n, name_of, in_name_order, opts);
    // The entries kept, by index, with their text; the last in catalog order ends the catalog.
    let mut kept: Vec<(usize, String)> = Vec::new();
    let mut total = TokenCount::default();
    let mut last: Option<(usize, u64)> = None;
    for &i in victims.iter().rev() {
        let text = entry_at_floor(i);
        let with = total + TokenCount::of(&text);
        let ends = match last {
            Some((l, breaks)) if l > i => (l, breaks),
            _ => (i, trailing_breaks(&text)),
        };
        if !fits(sizes.total(with, kept.len() as u64 + 1, ends.1), opts) {
            break;
        }
        total = with;
        last = Some(ends);
        kept.push((i, text));
    }
    // Sized first: grown by doubling, a list of 100,000 names would hold up to twice itself.
    let gone = &victims[..n - kept.len()];
    let bytes = gone.iter().map(|&i| name_of(i).len()).sum();
    let dropped = NameList::of(gone.iter().map(|&i| name_of(i)), gone.len(), bytes);
    // A dropped name takes every entry of that name off the shortened ones: only the kept ones
    // without a dropped namesake are asked whether they were cut.
    let mut kept_at: Vec<usize> = kept.iter().map(|&(i, _)| i).collect();
    kept_at.sort_unstable();
    let shortened: Vec<String> = kept_without_dropped_namesake(n, &kept_at, by_name, name_of)
        .into_iter()
        .filter(|&i| long(i))
        .map(|i| name_of(i).to_string())
        .collect();
    if kept.is_empty() {
        return Fitted { text: None, skills: Vec::new(), shortened, dropped };
    }
    crate::sort::sort_by_key(&mut kept, |k| k.0);
    let text = assemble(kept.iter().map(|(_, t)| t.as_str()), opts.format);
    Fitted { text: Some(text), skills: kept.iter().map(|&(i, _)| name_of(i).to_string()).collect(), shortened, dropped }
}

/// Whether the names of `n` skills alone overflow the budget: then every catalog of them within
/// it drops some.
pub(super) fn names_overflow<'a>(n: usize, name_of: &dyn Fn(usize) -> &'a str, opts: &CatalogOptions) -> bool {
    let sizes = Sizes::of(opts);
    !names_fit(&sizes, (0..n).map(name_of), opts)
}

/// [`fit`] over `n` skills read on demand: `name_of` their names (`in_name_order` when they are
/// known to come sorted), `item_of` their one-line description and location. When the names
/// alone overflow the budget, only the skills kept are read ([`fit_few`]); otherwise every one
/// is, once, as [`fit`] needs them all.
pub(super) fn fit_lazy<'a>(
    n: usize,
    name_of: &dyn Fn(usize) -> &'a str,
    item_of: &dyn Fn(usize) -> (String, Option<String>),
    in_name_order: bool,
    opts: &CatalogOptions,
    truncate: impl Fn(&str, usize) -> String,
) -> Fitted {
    let sizes = Sizes::of(opts);
    // A name is read where it lies each time it is needed (no list of 100,000 of them beside).
    if !names_fit(&sizes, (0..n).map(name_of), opts) {
        let floor = floor_of(opts);
        let long = |i: usize| item_of(i).0.chars().count() > floor;
        let entry_at_floor = |i: usize| {
            let (description, location) = item_of(i);
            at_floor(&Item { name: name_of(i), description, location: location.as_deref() }, floor, opts, &truncate)
        };
        return fit_few(n, name_of, in_name_order, &long, &entry_at_floor, opts, &sizes);
    }
    let (descriptions, locations): (Vec<String>, Vec<Option<String>>) = (0..n).map(item_of).unzip();
    let items: Vec<Item> = descriptions
        .into_iter()
        .zip(&locations)
        .enumerate()
        .map(|(i, (description, location))| Item { name: name_of(i), description, location: location.as_deref() })
        .collect();
    fit(items, opts, truncate)
}

#[cfg(test)]
mod tests {
    use super::super::format::render;
    use super::super::render::truncate;
    use super::super::CatalogFormat;
    use super::*;

    /// The budget as it was first written: render, test, cut or drop one, render again.
    fn reference(mut items: Vec<Item<'_>>, opts: &CatalogOptions) -> Fitted {
        let fits = |text: &str| {
            opts.budget_chars.is_none_or(|b| text.chars().count() as u32 <= b)
                && opts.budget_tokens.is_none_or(|b| crate::text::estimate_tokens(text) <= b)
        };
        let mut text = render(&items, opts.format);
        let (mut shortened, mut dropped) = (Vec::new(), Vec::new());
        if !fits(&text) {
            let floor = opts.min_description_chars.max(8) as usize;
            let longest = items.iter().map(|i| i.description.chars().count()).max().unwrap_or(0);
            let originals: Vec<String> = items.iter().map(|i| i.description.clone()).collect();
            let apply = |items: &mut Vec<Item>, cap: usize| {
                for (i, o) in items.iter_mut().zip(&originals) {
                    i.description = truncate(o, cap);
                }
            };
            let (mut lo, mut hi) = (floor, longest.max(floor));
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                apply(&mut items, mid);
                if fits(&render(&items, opts.format)) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            apply(&mut items, lo);
            shortened = items
                .iter()
                .zip(&originals)
                .filter(|(i, o)| &i.description != *o)
                .map(|(i, _)| i.name.to_string())
                .collect::<Vec<_>>();
            text = render(&items, opts.format);
            let importance = |name: &str| opts.priority.iter().position(|p| p == name).unwrap_or(usize::MAX);
            while !fits(&text) && !items.is_empty() {
                let victim = (0..items.len()).max_by(|&a, &b| {
                    importance(items[a].name).cmp(&importance(items[b].name)).then(items[a].name.cmp(items[b].name))
                });
                let Some(v) = victim else { break };
                dropped.push(items.remove(v).name.to_string());
                text = render(&items, opts.format);
            }
            shortened.retain(|n| !dropped.contains(n));
        }
        let skills: Vec<String> = items.iter().map(|i| i.name.to_string()).collect();
        Fitted { text: (!items.is_empty()).then_some(text), skills, shortened, dropped: dropped.into() }
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n.max(1)
        }
    }

    #[test]
    fn a_catalog_whose_names_overflow_keeps_the_most_important_and_writes_only_those() {
        // Many skills, a budget a few of them fill: the names alone overflow it.
        let names: Vec<String> = (0..400).map(|i| format!("skill-{:03}", (i * 37) % 400)).collect();
        let items = || -> Vec<Item<'_>> {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| Item { name: n, description: "word ".repeat(i % 30), location: None })
                .collect()
        };
        for format in [CatalogFormat::Xml, CatalogFormat::Reference, CatalogFormat::Json, CatalogFormat::Markdown] {
            for budget in [0, 10, 120, 400] {
                let opts = CatalogOptions {
                    format,
                    budget_tokens: Some(budget),
                    priority: vec!["skill-399".into(), "skill-007".into()],
                    ..CatalogOptions::default()
                };
                let (want, got) = (reference(items(), &opts), fit(items(), &opts, truncate));
                let case = format!("{format:?} at {budget} tokens");
                assert_eq!(got.text, want.text, "{case}");
                assert_eq!(got.skills, want.skills, "{case}");
                assert_eq!(got.shortened, want.shortened, "{case}");
                assert_eq!(got.dropped, want.dropped, "{case}");
                // Read on demand, counting the skills read: the same catalog, from those kept.
                let read = std::cell::Cell::new(0);
                let item_of = |i: usize| {
                    read.set(read.get() + 1);
                    ("word ".repeat(i % 30), None)
                };
                let lazy = fit_lazy(names.len(), &|i| names[i].as_str(), &item_of, false, &opts, truncate);
                assert_eq!(
                    (lazy.text, lazy.skills, lazy.shortened),
                    (want.text, want.skills, want.shortened),
                    "{case}"
                );
                assert!(read.get() <= 2 * (got.skills.len() + 1), "{case}: {} skills read", read.get());
                if budget == 400 {
                    assert!(got.skills.len() > 5 && got.skills.contains(&"skill-399".to_string()), "{case}");
                }
            }
        }
    }

    #[test]
    fn skills_in_name_order_are_fitted_as_any_order_is() {
        // In name order (as a registry lists them), the order of importance is taken from the
        // places without comparing names; namesakes side by side, some kept and some dropped.
        // In the reverse order, the names are compared.
        for in_order in [true, false] {
            skills_fitted_as_the_reference_fits_them(in_order);
        }
    }

    fn skills_fitted_as_the_reference_fits_them(in_order: bool) {
        let mut names: Vec<String> = (0..60).map(|i| format!("skill-{:03}", i / 3 * 2 + i % 2)).collect();
        names.sort();
        if !in_order {
            names.reverse();
        }
        let items = || -> Vec<Item<'_>> {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| Item { name: n, description: "word ".repeat(20 + i % 25), location: None })
                .collect()
        };
        let item_of = |i: usize| ("word ".repeat(20 + i % 25), None);
        // The cases where one of two namesakes is kept and the other dropped.
        let mut split = 0;
        for priority in [vec![], vec!["skill-050".to_string(), "skill-003".into(), "none".into()]] {
            for budget in (0..=240).step_by(4) {
                let opts =
                    CatalogOptions { budget_tokens: Some(budget), priority: priority.clone(), ..Default::default() };
                let want = reference(items(), &opts);
                let got = fit_lazy(names.len(), &|i| names[i].as_str(), &item_of, false, &opts, truncate);
                let case = format!("{} priorities at {budget} tokens, in order: {in_order}", priority.len());
                // Told they come in name order (as a registry's do), the same catalog unchecked.
                if in_order {
                    let told = fit_lazy(names.len(), &|i| names[i].as_str(), &item_of, true, &opts, truncate);
                    assert_eq!((&told.text, &told.skills, &told.shortened), (&got.text, &got.skills, &got.shortened));
                    assert_eq!(told.dropped, got.dropped, "{case}");
                }
                assert_eq!((&got.text, &got.skills), (&want.text, &want.skills), "{case}");
                assert_eq!((&got.shortened, &got.dropped), (&want.shortened, &want.dropped), "{case}");
                split += usize::from(got.skills.iter().any(|s| got.dropped.contains(s)));
            }
        }
        assert!(split > 0, "no budget kept one namesake and dropped the other (in order: {in_order})");
    }

    #[test]
    fn one_pass_fitting_matches_the_render_per_step_reference() {
        let words = ["pdf", "tables", "<b>", "a&b", "Ünïcödé", "语言模型", "x_y*z", "-lead", "1.", "\"\"", "`code`"];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let formats = [CatalogFormat::Xml, CatalogFormat::Reference, CatalogFormat::Json, CatalogFormat::Markdown];
        let (mut cut, mut dropped, mut empty) = (0, 0, 0);
        for round in 0..160 {
            let n = 1 + rng.below(60) as usize;
            // Names repeat now and then (a list of metas may hold a name twice).
            let names: Vec<String> = (0..n).map(|i| format!("skill-{}", (i as u64 * 7 + rng.below(3)) % 97)).collect();
            let descriptions: Vec<String> = (0..n)
                .map(|_| {
                    let len = rng.below(40) as usize;
                    (0..len).map(|_| words[rng.below(words.len() as u64) as usize]).collect::<Vec<_>>().join(" ")
                })
                .collect();
            let locations: Vec<String> = (0..n).map(|i| format!("/srv/skills/{}/SKILL.md", names[i])).collect();
            let with_location = rng.below(2) == 0;
            let items = || -> Vec<Item<'_>> {
                (0..n)
                    .map(|i| Item {
                        name: &names[i],
                        description: descriptions[i].clone(),
                        location: with_location.then_some(locations[i].as_str()),
                    })
                    .collect()
            };
            let format = formats[round % formats.len()];
            let full = render(&items(), format);
            let size = full.chars().count() as u64;
            let mut opts = CatalogOptions { format, ..CatalogOptions::default() };
            match rng.below(3) {
                0 => opts.budget_chars = Some(rng.below(size + 1) as u32),
                1 => opts.budget_tokens = Some(rng.below(size / 3 + 2) as u32),
                _ => {
                    opts.budget_chars = Some(rng.below(size + 1) as u32);
                    opts.budget_tokens = Some(rng.below(size / 2 + 2) as u32);
                }
            }
            opts.min_description_chars = rng.below(80) as u32;
            opts.priority = (0..rng.below(6)).map(|_| names[rng.below(n as u64) as usize].clone()).collect();
            let want = reference(items(), &opts);
            let got = fit(items(), &opts, truncate);
            let case = format!("round {round}, {format:?}, {n} skills");
            assert_eq!(got.text, want.text, "{case}");
            assert_eq!(got.skills, want.skills, "{case}");
            assert_eq!(got.shortened, want.shortened, "{case}");
            assert_eq!(got.dropped, want.dropped, "{case}");
            cut += usize::from(!want.shortened.is_empty());
            dropped += usize::from(!want.dropped.is_empty());
            empty += usize::from(want.text.is_none());
        }
        assert!(cut > 10 && dropped > 10 && empty > 3, "cut {cut}, dropped {dropped}, empty {empty}");
    }
}
