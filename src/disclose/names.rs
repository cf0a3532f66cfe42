//! [`NameList`]: many names in one buffer. A budgeted catalog of 100,000 skills drops nearly all
//! of them and reports each dropped name; held as one string each, that is 100,000 allocations to
//! make, hand over and free on every render. Here it is one text and one list of where each name
//! ends, and the text is ready to hand to JS as one string that splits into the same list. Both
//! are shared by a copy of the list (a catalog the host keeps is copied to be handed over).

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use std::fmt;
use std::rc::Rc;

/// Names in order, held in one buffer; serialized as a list of strings. A copy shares the buffer.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct NameList {
    /// Each name followed by a line break.
    text: Rc<String>,
    /// Where each name ends in `text` (its line break's place).
    ends: Rc<Vec<usize>>,
    /// Some name holds a line break itself: `text` does not split back into the names.
    broken: bool,
}

impl NameList {
    /// The names `names` gives, `count` of them of `bytes` bytes in all (room made for those at
    /// once; more or fewer are taken as they come).
    pub fn of<'a>(names: impl IntoIterator<Item = &'a str>, count: usize, bytes: usize) -> NameList {
        let (mut text, mut ends) = (String::with_capacity(bytes + count), Vec::with_capacity(count));
        for name in names {
            text.push_str(name);
            ends.push(text.len());
            text.push('\n');
        }
        // A name holds a line break when the text has more of them than the names' ends: one pass
        // over the text, not a search in each name.
        let broken = text.bytes().filter(|&b| b == b'\n').count() != ends.len();
        NameList { text: Rc::new(text), ends: Rc::new(ends), broken }
    }

    /// Adds `name` at the end (the buffer is copied first if a copy of the list shares it).
    pub fn push(&mut self, name: &str) {
        self.broken |= name.contains('\n');
        let text = Rc::make_mut(&mut self.text);
        text.push_str(name);
        Rc::make_mut(&mut self.ends).push(text.len());
        text.push('\n');
    }

    /// How many names.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Name `i`.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = match i.checked_sub(1) {
            Some(before) => self.ends.get(before)? + 1,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// Every name, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// Whether `name` is among them.
    pub fn contains(&self, name: &str) -> bool {
        self.iter().any(|n| n == name)
    }

    /// The names joined by line breaks, when none holds one itself (then splitting the text at
    /// each line break gives the list back): one string for JS instead of one per name.
    pub fn lines(&self) -> Option<&str> {
        if self.broken {
            return None;
        }
        Some(self.text.strip_suffix('\n').unwrap_or_default())
    }
}

impl std::ops::Index<usize> for NameList {
    type Output = str;

    /// Name `i`; panics past the end, as a slice does.
    fn index(&self, i: usize) -> &str {
        match self.get(i) {
            Some(name) => name,
            None => panic!("name {i} of a list of {}", self.len()),
        }
    }
}

impl<'a> FromIterator<&'a str> for NameList {
    fn from_iter<I: IntoIterator<Item = &'a str>>(names: I) -> NameList {
        NameList::of(names, 0, 0)
    }
}

impl From<Vec<String>> for NameList {
    fn from(names: Vec<String>) -> NameList {
        names.iter().map(String::as_str).collect()
    }
}

impl<S: AsRef<str>> PartialEq<[S]> for NameList {
    fn eq(&self, other: &[S]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == b.as_ref())
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for NameList {
    fn eq(&self, other: &Vec<S>) -> bool {
        *self == other[..]
    }
}

impl fmt::Debug for NameList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for NameList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for name in self.iter() {
            seq.serialize_element(name)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for NameList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NameList, D::Error> {
        Vec::<String>::deserialize(deserializer).map(NameList::from)
    }
}

#[cfg(test)]
mod tests {
    use super::NameList;

    #[test]
    fn holds_reads_and_serializes_names_as_a_list_does() {
        let names = ["pdf", "", "Spaced Title", "日本語"];
        let list: NameList = names.into_iter().collect();
        assert_eq!(list.len(), 4);
        assert_eq!(list, names.to_vec());
        assert_eq!(&list[2], "Spaced Title");
        assert_eq!(list.get(4), None);
        assert!(list.contains("") && list.contains("日本語") && !list.contains("pd"));
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, r#"["pdf","","Spaced Title","日本語"]"#);
        assert_eq!(serde_json::from_str::<NameList>(&json).unwrap(), list);
        assert_eq!(format!("{list:?}"), format!("{names:?}"));
        // The text splits back into the names, unless a name holds a line break.
        assert_eq!(list.lines().unwrap().split('\n').collect::<Vec<_>>(), names);
        let broken: NameList = ["a\nb", "c"].into_iter().collect();
        assert_eq!((broken.lines(), broken.len(), &broken[0]), (None, 2, "a\nb"));
        assert_eq!(NameList::default().lines(), Some(""));
        // A copy shares the buffer until either is added to.
        let mut copy = list.clone();
        assert!(std::rc::Rc::ptr_eq(&copy.text, &list.text));
        copy.push("more");
        assert_eq!((list.len(), copy.len(), &copy[4], &list[3]), (4, 5, "more", "日本語"));
    }
}
