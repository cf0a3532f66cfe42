//! [`FieldMap`]: the small string-keyed maps a skill holds (metadata, localized descriptions,
//! unknown keys), as one sorted vector instead of a B-tree.
//!
//! Most skills have none or a handful of entries; a `BTreeMap` allocates a node of eleven slots
//! for its first entry (about 540 bytes for `String` to `String`), which at 100,000 skills is the
//! largest single share of a registry's memory. A sorted vector holds exactly its entries, looks
//! keys up by binary search and serialises as the same JSON object.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// A map from string keys to `V`, sorted by key, each key once.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldMap<V> {
    entries: Vec<(String, V)>,
}

impl<V> Default for FieldMap<V> {
    fn default() -> Self {
        FieldMap { entries: Vec::new() }
    }
}

impl<V> FieldMap<V> {
    /// An empty map (no allocation).
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().and_then(|i| self.entries.get(i)).map(|(_, v)| v)
    }

    /// The index of `key` in key order.
    pub fn position(&self, key: &str) -> Option<usize> {
        self.find(key).ok()
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaces.
    pub fn insert(&mut self, key: String, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => self.entries.get_mut(i).map(|slot| std::mem::replace(&mut slot.1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Takes `key`'s value out.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<V> FromIterator<(String, V)> for FieldMap<V> {
    /// The entries sorted by key; of entries with the same key the last one is kept, as repeated
    /// inserts would keep it. One sort, no per-entry shifting.
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> Self {
        let mut entries: Vec<(String, V)> = iter.into_iter().collect();
        // Stable, so that equal keys stay in arrival order and the last one can be kept; through
        // the crate's one sort routine.
        crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        let mut kept: Vec<(String, V)> = Vec::with_capacity(entries.len());
        for e in entries {
            match kept.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => kept.push(e),
            }
        }
        kept.shrink_to_fit();
        FieldMap { entries: kept }
    }
}

impl<V, const N: usize> From<[(String, V); N]> for FieldMap<V> {
    fn from(entries: [(String, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<V> IntoIterator for FieldMap<V> {
    type Item = (String, V);
    type IntoIter = std::vec::IntoIter<(String, V)>;

    /// The entries in key order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, V> IntoIterator for &'a FieldMap<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (String, V)>, fn(&'a (String, V)) -> (&'a String, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<V: Serialize> Serialize for FieldMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for FieldMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = FieldMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map with string keys")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                // The hint is the input's claim: bounded, so that it cannot reserve much.
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = access.next_entry::<String, V>()? {
                    entries.push(entry);
                }
                Ok(entries.into_iter().collect())
            }
        }
        deserializer.deserialize_map(Entries(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::FieldMap;
    use std::collections::BTreeMap;

    #[test]
    fn behaves_as_a_btree_map_of_the_same_inserts() {
        let ops = ["b", "a", "c", "a", "", "é", "B", "c"];
        let (mut ours, mut theirs) = (FieldMap::new(), BTreeMap::new());
        for (i, k) in ops.iter().enumerate() {
            assert_eq!(ours.insert(k.to_string(), i), theirs.insert(k.to_string(), i));
        }
        assert_eq!(ours.iter().collect::<Vec<_>>(), theirs.iter().collect::<Vec<_>>());
        assert_eq!(ours.get("a"), Some(&3));
        assert_eq!(ours.remove("a"), theirs.remove("a"));
        assert!(!ours.contains_key("a") && ours.get("a").is_none());
        assert_eq!(ours.len(), theirs.len());
        let collected: FieldMap<usize> = ops.iter().enumerate().map(|(i, k)| (k.to_string(), i)).collect();
        let expected: BTreeMap<String, usize> = ops.iter().enumerate().map(|(i, k)| (k.to_string(), i)).collect();
        assert_eq!(collected.into_iter().collect::<Vec<_>>(), expected.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn serialises_as_the_same_object_and_reads_one_back() {
        let map: FieldMap<String> = [("z".to_string(), "1".to_string()), ("a".to_string(), "2".to_string())].into();
        let text = serde_json::to_string(&map).unwrap_or_default();
        assert_eq!(text, r#"{"a":"2","z":"1"}"#);
        let back: FieldMap<String> = serde_json::from_str(r#"{"z":"1","a":"2","a":"3"}"#).unwrap_or_default();
        assert_eq!(back.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<Vec<_>>(), [("a", "3"), ("z", "1")]);
        assert!(serde_json::from_str::<FieldMap<String>>("[1]").is_err());
    }
}
