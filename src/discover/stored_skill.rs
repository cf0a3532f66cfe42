//! A skill as a snapshot holds it: [`write`] puts its fields down, [`read`] takes them back whole,
//! and [`StoredSkill`] is one kept where it lies, its name and flags read in place and the rest
//! decoded only when the skill is asked for. A registry started from a snapshot so holds each
//! skill once, as the snapshot's bytes, instead of as owned strings beside them.

use super::snapshot_wire::{self as wire, Bad, Reader, Sink};
use crate::parse::{FieldMap, Skill};
use crate::shared_bytes::SharedBytes;

// A skill's flags: which optional fields follow, and the two booleans.
const LICENSE: u64 = 1;
const COMPATIBILITY: u64 = 1 << 1;
const ARGUMENT_HINT: u64 = 1 << 2;
const MIN_TIER: u64 = 1 << 3;
const DISABLE_MODEL_INVOCATION: u64 = 1 << 4;
const USER_INVOCABLE: u64 = 1 << 5;
const CONTEXT: u64 = 1 << 6;
const AGENT: u64 = 1 << 7;
const BODY: u64 = 1 << 8;
const BODY_LINE: u64 = 1 << 9;
const SKILL_FLAGS: u64 = (1 << 10) - 1;

fn opt_str<S: Sink>(s: &mut S, v: &Option<String>) {
    if let Some(t) = v {
        wire::str(s, t);
    }
}

fn str_map<S: Sink>(s: &mut S, m: &FieldMap<String>) {
    wire::varint(s, m.len() as u64);
    for (k, v) in m {
        wire::str(s, k);
        wire::str(s, v);
    }
}

fn json_map<S: Sink>(s: &mut S, m: &FieldMap<serde_json::Value>) {
    wire::varint(s, m.len() as u64);
    for (k, v) in m {
        wire::str(s, k);
        wire::json(s, v, 0);
    }
}

/// Writes `skill`'s fields: a flags number for the optional ones and the two booleans, then each
/// field in declaration order.
pub fn write<S: Sink>(s: &mut S, skill: &Skill) {
    let Skill {
        name,
        description,
        localized_descriptions,
        license,
        compatibility,
        metadata,
        metadata_structured,
        allowed_tools,
        argument_hint,
        min_tier,
        disable_model_invocation,
        user_invocable,
        context,
        agent,
        extra,
        body,
        body_line,
    } = skill;
    let mut flags = 0;
    for (on, bit) in [
        (license.is_some(), LICENSE),
        (compatibility.is_some(), COMPATIBILITY),
        (argument_hint.is_some(), ARGUMENT_HINT),
        (min_tier.is_some(), MIN_TIER),
        (*disable_model_invocation, DISABLE_MODEL_INVOCATION),
        (*user_invocable, USER_INVOCABLE),
        (context.is_some(), CONTEXT),
        (agent.is_some(), AGENT),
        (body.is_some(), BODY),
        (body_line.is_some(), BODY_LINE),
    ] {
        if on {
            flags |= bit;
        }
    }
    wire::varint(s, flags);
    wire::str(s, name);
    wire::str(s, description);
    str_map(s, localized_descriptions);
    opt_str(s, license);
    opt_str(s, compatibility);
    str_map(s, metadata);
    json_map(s, metadata_structured);
    wire::varint(s, allowed_tools.len() as u64);
    for t in allowed_tools {
        wire::str(s, t);
    }
    opt_str(s, argument_hint);
    opt_str(s, min_tier);
    opt_str(s, context);
    opt_str(s, agent);
    json_map(s, extra);
    opt_str(s, body);
    if let Some(line) = body_line {
        wire::varint(s, u64::from(*line));
    }
}

fn read_opt_string(r: &mut Reader, flags: u64, bit: u64) -> Result<Option<String>, Bad> {
    if flags & bit == 0 {
        Ok(None)
    } else {
        r.string().map(Some)
    }
}

fn read_str_map(r: &mut Reader) -> Result<FieldMap<String>, Bad> {
    let n = r.count(2)?;
    let mut entries = Vec::with_capacity(n.min(16));
    for _ in 0..n {
        let k = r.string()?;
        entries.push((k, r.string()?));
    }
    Ok(entries.into_iter().collect())
}

fn read_json_map(r: &mut Reader) -> Result<FieldMap<serde_json::Value>, Bad> {
    let n = r.count(2)?;
    let mut entries = Vec::with_capacity(n.min(16));
    for _ in 0..n {
        let k = r.string()?;
        entries.push((k, r.json(0)?));
    }
    Ok(entries.into_iter().collect())
}

/// Reads past what [`write`] wrote as [`read`] reads it, every flag, count and string checked the
/// same, building nothing: the same fields in the same order (a test holds the two to accepting
/// the same bytes).
fn check(r: &mut Reader) -> Result<(), Bad> {
    let flags = r.varint()?;
    if flags & !SKILL_FLAGS != 0 {
        return Err(Bad("a skill has unknown flags"));
    }
    let optional = |r: &mut Reader, bit: u64| if flags & bit == 0 { Ok(()) } else { r.str().map(drop) };
    let str_map = |r: &mut Reader| {
        for _ in 0..r.count(2)? {
            r.str()?;
            r.str()?;
        }
        Ok(())
    };
    let json_map = |r: &mut Reader| {
        for _ in 0..r.count(2)? {
            r.str()?;
            r.skip_json(0)?;
        }
        Ok(())
    };
    r.str()?; // name
    r.str()?; // description
    str_map(r)?; // localized descriptions
    optional(r, LICENSE)?;
    optional(r, COMPATIBILITY)?;
    str_map(r)?; // metadata
    json_map(r)?; // structured metadata
    for _ in 0..r.count(1)? {
        r.str()?; // allowed tools
    }
    for bit in [ARGUMENT_HINT, MIN_TIER, CONTEXT, AGENT] {
        optional(r, bit)?;
    }
    json_map(r)?; // extra
    optional(r, BODY)?;
    if flags & BODY_LINE != 0 {
        r.at_most(u64::from(u32::MAX))?;
    }
    Ok(())
}

/// Reads what [`write`] wrote, every flag, count and string checked.
pub fn read(r: &mut Reader) -> Result<Skill, Bad> {
    let flags = r.varint()?;
    if flags & !SKILL_FLAGS != 0 {
        return Err(Bad("a skill has unknown flags"));
    }
    let name = r.string()?;
    let description = r.string()?;
    let localized_descriptions = read_str_map(r)?;
    let license = read_opt_string(r, flags, LICENSE)?;
    let compatibility = read_opt_string(r, flags, COMPATIBILITY)?;
    let metadata = read_str_map(r)?;
    let metadata_structured = read_json_map(r)?;
    let n = r.count(1)?;
    let mut allowed_tools = Vec::with_capacity(n.min(16));
    for _ in 0..n {
        allowed_tools.push(r.string()?);
    }
    let argument_hint = read_opt_string(r, flags, ARGUMENT_HINT)?;
    let min_tier = read_opt_string(r, flags, MIN_TIER)?;
    let context = read_opt_string(r, flags, CONTEXT)?;
    let agent = read_opt_string(r, flags, AGENT)?;
    let extra = read_json_map(r)?;
    let body = read_opt_string(r, flags, BODY)?;
    let body_line = if flags & BODY_LINE == 0 { None } else { Some(r.at_most(u64::from(u32::MAX))? as u32) };
    Ok(Skill {
        name,
        description,
        localized_descriptions,
        license,
        compatibility,
        metadata,
        metadata_structured,
        allowed_tools,
        argument_hint,
        min_tier,
        disable_model_invocation: flags & DISABLE_MODEL_INVOCATION != 0,
        user_invocable: flags & USER_INVOCABLE != 0,
        context,
        agent,
        extra,
        body,
        body_line,
    })
}

/// A skill kept as the bytes [`write`] wrote, part of a snapshot's buffer: checked whole when the
/// snapshot was read ([`StoredSkill::checked`]), so reading it again cannot fail.
#[derive(Clone)]
pub struct StoredSkill {
    bytes: SharedBytes,
}

impl StoredSkill {
    /// The skill at the start of `bytes` (which run on past its end), checked whole as [`read`]
    /// would read it, with nothing built; with the bytes it takes.
    pub fn checked(bytes: SharedBytes) -> Result<(StoredSkill, usize), Bad> {
        let mut r = Reader::new(&bytes);
        check(&mut r)?;
        let len = r.offset();
        Ok((StoredSkill { bytes: bytes.slice(0..len) }, len))
    }

    /// The bytes [`write`] wrote.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The flags number and the name, read in place.
    fn flags_and_name(&self) -> Option<(u64, &str)> {
        let mut r = Reader::new(&self.bytes);
        let flags = r.varint().ok()?;
        Some((flags, r.str().ok()?))
    }

    /// The skill's name, read in place.
    pub fn name(&self) -> &str {
        self.flags_and_name().map_or("", |(_, name)| name)
    }

    /// What visibility reads of the skill, read in place at once: the name, whether
    /// `disable-model-invocation` and `user-invocable` are set, and whether `min_tier` or
    /// `compatibility` is (the fields the host's rules read besides).
    pub fn head(&self) -> (&str, bool, bool, bool) {
        let (flags, name) = self.flags_and_name().unwrap_or((0, ""));
        let on = |bit: u64| flags & bit != 0;
        (name, on(DISABLE_MODEL_INVOCATION), on(USER_INVOCABLE), on(MIN_TIER | COMPATIBILITY))
    }

    /// The whole skill, decoded now.
    pub fn decode(&self) -> Option<Skill> {
        read(&mut Reader::new(&self.bytes)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_skill, ParseOptions};

    /// Whether `read` and `check` take the same bytes from `b` (or both refuse it).
    fn agree(b: &[u8]) -> bool {
        let (mut one, mut two) = (Reader::new(b), Reader::new(b));
        let read_ok = read(&mut one).is_ok();
        let check_ok = check(&mut two).is_ok();
        read_ok == check_ok && (!read_ok || one.offset() == two.offset())
    }

    #[test]
    fn checking_a_stored_skill_accepts_exactly_what_reading_it_does() {
        let md = "---\nname: full\ndescription: Does full things.\ndescription_zh: 做事\nlicense: MIT\n\
                  compatibility: needs git\nallowed-tools: Bash(git:*) Read\nargument-hint: \"[file]\"\n\
                  min_tier: large\ndisable-model-invocation: true\nuser-invocable: false\ncontext: fork\n\
                  agent: Explore\nmetadata:\n  author: me\n  nested:\n    a: [1, -2, 2.5, true, null, \"x\", {k: v}]\n\
                  custom-key: {k: v}\n---\n# Body\n";
        let opts = ParseOptions { include_body: Some(true), ..ParseOptions::default() };
        let skill = parse_skill(md.as_bytes(), &opts).skill.expect("a skill");
        let mut bytes = Vec::new();
        write(&mut bytes, &skill);
        assert_eq!(read(&mut Reader::new(&bytes)).ok().as_ref(), Some(&skill));
        assert!(agree(&bytes));
        for cut in 0..bytes.len() {
            assert!(agree(&bytes[..cut]), "cut at {cut}");
        }
        for at in 0..bytes.len() {
            for value in [0x00, 0x01, 0x07, 0x08, 0x09, 0x7f, 0x80, 0xc0, 0xff] {
                let mut damaged = bytes.clone();
                damaged[at] = value;
                assert!(agree(&damaged), "byte {at} set to {value:#x}");
            }
        }
        // A stored skill reads its head in place and decodes to the skill.
        let (stored, len) = StoredSkill::checked(SharedBytes::from(bytes.clone())).expect("checked");
        assert_eq!(len, bytes.len());
        assert_eq!(stored.name(), "full");
        assert_eq!(stored.head(), ("full", true, false, true));
        assert_eq!(stored.decode().as_ref(), Some(&skill));
    }
}
