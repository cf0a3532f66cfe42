//! Read-only data that only cold code names moves to the cold module, at the same addresses: the
//! primary's copy of those bytes becomes zeros (which wasm-opt then leaves out of its segments),
//! and the cold module's active data segments write them back into the shared memory when it is
//! instantiated, before any cold function can run.
//!
//! Which data the primary names comes from the linker ([`DataMap`]): a data symbol stays when a
//! constant of the primary's code (an `i32.const`, either half of an `i64.const`, a lane of a
//! `v128.const`, a load's or store's offset, a global's initial value) is an address code
//! relocations wrote for it, or when a pointer word in data that stays points into it. Constants
//! in the data's range that no relocation wrote (wasm-opt folded an offset into one) keep every
//! symbol near them, with a margin on each side. Bytes no symbol covers, and everything outside
//! the read-only segments, stay.

use crate::datamap::{readonly_hash, DataMap};
use walrus::ir::{Value, Visitor};
use walrus::{ConstExpr, DataKind, GlobalKind, Module};

/// How far before a constant no relocation wrote a symbol stays kept (a pointer one past the end
/// of what it walks backwards over).
const MARGIN_BEFORE: u32 = 16;
/// How far after such a constant symbols stay kept (an address folded with a negative offset).
const MARGIN_AFTER: u32 = 64;
/// Runs of moved bytes closer than this are written by one segment of the cold module (the bytes
/// between them are read-only and already in memory, so writing them again changes nothing).
const JOIN_GAP: u32 = 16;
/// The largest span of data the split handles.
const MAX_SPAN: u32 = 256 << 20;

/// What moved.
#[derive(Debug, Default, PartialEq)]
pub struct MovedData {
    /// Bytes that moved to the cold module.
    pub bytes: usize,
    /// Segments the cold module writes them with.
    pub segments: usize,
    /// Constants in the data's range that no relocation wrote.
    pub unknown: usize,
}

/// Visitor methods that take the offset of an instruction's memory argument as a value.
macro_rules! offsets {
    ($($method:ident: $instr:ident),* $(,)?) => {
        $(fn $method(&mut self, i: &walrus::ir::$instr) {
            self.wide(i.arg.offset);
        })*
    };
}

/// Every value the primary's code and globals could use as an address.
fn candidate_values(m: &Module) -> Vec<u32> {
    struct Values(Vec<u32>);
    impl Values {
        fn wide(&mut self, v: u64) {
            if let Ok(v) = u32::try_from(v) {
                self.0.push(v);
            }
        }
    }
    impl<'a> Visitor<'a> for Values {
        fn visit_const(&mut self, c: &walrus::ir::Const) {
            match c.value {
                Value::I32(v) => self.0.push(v as u32),
                Value::I64(v) => {
                    let v = v as u64;
                    self.0.extend([v as u32, (v >> 32) as u32]);
                }
                Value::V128(v) => self.0.extend((0..4).map(|k| (v >> (32 * k)) as u32)),
                Value::F32(_) | Value::F64(_) => {}
            }
        }
        // Every instruction with a memory argument: its offset may be an address.
        offsets! {
            visit_load: Load,
            visit_store: Store,
            visit_load_simd: LoadSimd,
            visit_atomic_rmw: AtomicRmw,
            visit_cmpxchg: Cmpxchg,
            visit_atomic_notify: AtomicNotify,
            visit_atomic_wait: AtomicWait,
        }
    }
    let mut values = Values(Vec::new());
    for (_, func) in m.funcs.iter_local() {
        walrus::ir::dfs_in_order(&mut values, func, func.entry_block());
    }
    for g in m.globals.iter() {
        if let GlobalKind::Local(ConstExpr::Value(Value::I32(v))) = g.kind {
            values.0.push(v as u32);
        }
    }
    values.0.sort_unstable();
    values.0.dedup();
    values.0
}

/// The primary's active segments of memory 0 as `(segment, start address)`.
fn segments(m: &Module) -> Vec<(walrus::DataId, u32)> {
    m.data
        .iter()
        .filter_map(|d| match &d.kind {
            DataKind::Active { offset: ConstExpr::Value(Value::I32(a)), .. } => Some((d.id(), *a as u32)),
            _ => None,
        })
        .collect()
}

/// The symbols of `map` indexed for "which symbols cover any of `[a, b]`".
struct SymbolIndex {
    /// Symbol numbers sorted by start.
    order: Vec<u32>,
    /// The largest end among `order[..=i]`.
    max_end: Vec<u32>,
}

impl SymbolIndex {
    fn new(map: &DataMap) -> Self {
        let mut order: Vec<u32> = (0..map.symbols.len() as u32).collect();
        order.sort_unstable_by_key(|&i| map.symbols[i as usize].0);
        let mut max_end = Vec::with_capacity(order.len());
        let mut m = 0;
        for &i in &order {
            m = m.max(map.symbols[i as usize].1);
            max_end.push(m);
        }
        Self { order, max_end }
    }

    /// Calls `f` with each symbol that overlaps `[a, b]`.
    fn overlapping(&self, map: &DataMap, a: u32, b: u32, mut f: impl FnMut(u32)) {
        let mut i = self.order.partition_point(|&s| map.symbols[s as usize].0 <= b);
        while i > 0 && self.max_end[i - 1] > a {
            i -= 1;
            let s = self.order[i];
            let (start, end) = map.symbols[s as usize];
            if start <= b && end > a {
                f(s);
            }
        }
    }
}

/// Moves the read-only data only cold code names from `primary` into `cold` (see the module's
/// documentation). `primary` must already have its moved functions replaced.
pub fn move_data(primary: &mut Module, cold: &mut Module, map: &DataMap) -> Result<MovedData, String> {
    let (Some(lo), Some(hi)) = (
        map.readonly.iter().map(|r| r.0).chain(map.symbols.iter().map(|s| s.0)).min(),
        map.readonly.iter().map(|r| r.1).chain(map.symbols.iter().map(|s| s.1)).max(),
    ) else {
        return Ok(MovedData::default());
    };
    if hi - lo > MAX_SPAN {
        return Err("the module's data spans too much memory".to_string());
    }
    // The memory image of [lo, hi) as the primary's segments write it.
    let mut image = vec![0u8; (hi - lo) as usize];
    let segs = segments(primary);
    for &(id, start) in &segs {
        let value = &primary.data.get(id).value;
        for (k, b) in value.iter().enumerate() {
            let a = start as u64 + k as u64;
            if a >= u64::from(lo) && a < u64::from(hi) {
                image[(a - u64::from(lo)) as usize] = *b;
            }
        }
    }
    if readonly_hash(&map.readonly, |a| image[(a - lo) as usize]) != map.hash {
        return Err("the data map is of another build (its read-only bytes differ)".to_string());
    }

    let index = SymbolIndex::new(map);
    let mut kept = vec![false; map.symbols.len()];
    let mut work: Vec<u32> = Vec::new();
    let mut keep = |s: u32, work: &mut Vec<u32>| {
        if !std::mem::replace(&mut kept[s as usize], true) {
            work.push(s);
        }
    };
    let mut unknown = 0;
    for v in candidate_values(primary) {
        let first = map.code.partition_point(|c| c.0 < v);
        let named = map.code.get(first..).unwrap_or_default().iter().take_while(|c| c.0 == v);
        let mut relocated = false;
        for &(_, s) in named {
            relocated = true;
            keep(s, &mut work);
        }
        if relocated {
            continue;
        }
        if v >= lo.saturating_sub(MARGIN_AFTER) && v < hi.saturating_add(MARGIN_BEFORE) {
            unknown += 1;
            let (a, b) = (v.saturating_sub(MARGIN_BEFORE), v.saturating_add(MARGIN_AFTER));
            index.overlapping(map, a, b, |s| keep(s, &mut work));
        }
    }
    while let Some(s) = work.pop() {
        let (start, end) = map.symbols[s as usize];
        let first = map.pointers.partition_point(|p| p.0 < start);
        for &(_, target) in map.pointers[first..].iter().take_while(|p| p.0 < end) {
            keep(target, &mut work);
        }
    }

    // Per byte: 0 no symbol covers it, 1 only symbols that move do, 2 a kept symbol does.
    let mut state = vec![0u8; image.len()];
    for (s, &(start, end)) in map.symbols.iter().enumerate() {
        let mark = if kept[s] { 2 } else { 1 };
        for st in &mut state[(start - lo) as usize..(end - lo) as usize] {
            *st = (*st).max(mark);
        }
    }
    // Runs of moved bytes within the read-only ranges, joined across short read-only gaps.
    let mut runs: Vec<(u32, u32)> = Vec::new();
    let mut moved_bytes = 0;
    for &(start, end) in &map.readonly {
        let mut a = start;
        while a < end {
            if state[(a - lo) as usize] != 1 {
                a += 1;
                continue;
            }
            let run_start = a;
            while a < end && state[(a - lo) as usize] == 1 {
                a += 1;
            }
            moved_bytes += (a - run_start) as usize;
            match runs.last_mut() {
                Some(last) if last.1 >= start && run_start - last.1 <= JOIN_GAP => last.1 = a,
                _ => runs.push((run_start, a)),
            }
        }
    }

    // The primary's copy becomes zeros; the cold module writes the bytes.
    for &(id, start) in &segs {
        let value = &mut primary.data.get_mut(id).value;
        for (k, b) in value.iter_mut().enumerate() {
            let a = start as u64 + k as u64;
            if a >= u64::from(lo) && a < u64::from(hi) && state[(a - u64::from(lo)) as usize] == 1 {
                *b = 0;
            }
        }
    }
    let memory = cold.memories.iter().next().map(|m| m.id()).ok_or("the cold module has no memory")?;
    for &(start, end) in &runs {
        let bytes = image[(start - lo) as usize..(end - lo) as usize].to_vec();
        let offset = ConstExpr::Value(Value::I32(start as i32));
        let id = cold.data.add(DataKind::Active { memory, offset }, bytes);
        cold.memories.get_mut(memory).data_segments.insert(id);
    }
    Ok(MovedData { bytes: moved_bytes, segments: runs.len(), unknown })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::split;
    use std::collections::HashSet;
    use walrus::{FunctionBuilder, ModuleConfig};

    /// Symbols of the test module: `(start, bytes)`.
    const A: (u32, &[u8]) = (1024, b"\x00\x00\x00\x00AAAA"); // named by `hot`; its first word points at C
    const B: (u32, &[u8]) = (1100, b"BBBBBBBB"); // named by `rare` alone: moves
    const C: (u32, &[u8]) = (1200, b"CCCCCCCC"); // named by no code, pointed at from A
    const D: (u32, &[u8]) = (1300, b"DDDDDDDD"); // `rare` names it; `hot` holds it in an i64 constant
    const E: (u32, &[u8]) = (1400, b"EEEEEEEE"); // `rare` names it; `hot` has a constant just past it
    const F: (u32, &[u8]) = (1500, b"FFFFFFFF"); // named by `rare` alone: moves
    const SYMBOLS: [(u32, &[u8]); 6] = [A, B, C, D, E, F];

    /// A module whose read-only data is the symbols above, with `hot` (kept) and `rare` (moved).
    fn module() -> (Vec<u8>, usize, DataMap) {
        let mut m = Module::with_config(ModuleConfig::new());
        let memory = m.memories.add_local(false, false, 1, None, None);
        m.exports.add("memory", memory);
        m.tables.add_local(false, 1, Some(1), walrus::RefType::FUNCREF);
        let mut image = vec![0u8; 600];
        for (start, bytes) in SYMBOLS {
            image[(start - 1024) as usize..][..bytes.len()].copy_from_slice(bytes);
        }
        image[..4].copy_from_slice(&C.0.to_le_bytes());
        let offset = ConstExpr::Value(Value::I32(1024));
        m.data.add(DataKind::Active { memory, offset }, image.clone());
        let mut hot = FunctionBuilder::new(&mut m.types, &[], &[]);
        hot.func_body()
            .i32_const(A.0 as i32)
            .drop()
            .i64_const(((u64::from(D.0) << 32) | 7) as i64)
            .drop()
            .i32_const(E.0 as i32 + 10)
            .drop();
        let hot = hot.finish(vec![], &mut m.funcs);
        m.exports.add("hot", hot);
        let mut rare = FunctionBuilder::new(&mut m.types, &[], &[]);
        let mut body = rare.func_body();
        for (start, _) in [B, D, E, F] {
            body.i32_const(start as i32).drop();
        }
        let rare = rare.finish(vec![], &mut m.funcs);
        m.exports.add("rare", rare);
        let readonly = vec![(1024, 1624)];
        let hash = readonly_hash(&readonly, |a| image[(a - 1024) as usize]);
        let map = DataMap {
            hash,
            readonly,
            symbols: SYMBOLS.iter().map(|(s, b)| (*s, s + b.len() as u32)).collect(),
            code: vec![(A.0, 0), (B.0, 1), (D.0, 3), (E.0, 4), (F.0, 5)],
            pointers: vec![(A.0, 2)],
        };
        let bytes = m.emit_wasm();
        // The profile numbers functions as the emitted module does.
        let parsed = Module::from_buffer(&bytes).unwrap();
        let hot = parsed
            .exports
            .iter()
            .find_map(|e| match e.item {
                walrus::ExportItem::Function(f) if e.name == "hot" => Some(f.index()),
                _ => None,
            })
            .unwrap();
        (bytes, hot, map)
    }

    /// The bytes the active segments of `m` write at `[start, start + len)`.
    fn bytes_at(m: &Module, start: u32, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        for d in m.data.iter() {
            let DataKind::Active { offset: ConstExpr::Value(Value::I32(at)), .. } = d.kind else { continue };
            for (k, b) in d.value.iter().enumerate() {
                let a = at as i64 + k as i64 - i64::from(start);
                if a >= 0 && (a as usize) < len {
                    out[a as usize] = *b;
                }
            }
        }
        out
    }

    #[test]
    fn data_only_cold_code_names_moves_to_the_cold_module_at_its_address() {
        let (bytes, hot, map) = module();
        let out = split(&bytes, &HashSet::from([hot]), Some(&map)).unwrap();
        assert_eq!(out.data, MovedData { bytes: 16, segments: 2, unknown: 1 });
        let primary = Module::from_buffer(&out.primary).unwrap();
        let cold = Module::from_buffer(&out.cold).unwrap();
        for (start, b) in SYMBOLS {
            let (in_primary, in_cold) = (bytes_at(&primary, start, b.len()), bytes_at(&cold, start, b.len()));
            if [B.0, F.0].contains(&start) {
                assert_eq!(in_primary, vec![0; b.len()], "{start} left in the primary");
                assert_eq!(in_cold, b, "{start} not written by the cold module");
            } else {
                assert_eq!(&in_primary[4.min(b.len())..], &b[4..], "{start} changed in the primary");
                assert_eq!(in_cold, vec![0; b.len()], "{start} written by the cold module");
            }
        }
        // The pointer word at A's start is as it was.
        assert_eq!(bytes_at(&primary, A.0, 4), C.0.to_le_bytes());
        // The cold module writes its segments into the memory it imports from the primary.
        let memory = cold.memories.iter().next().unwrap();
        assert!(memory.import.is_some());
        assert_eq!(memory.data_segments.len(), 2);
    }

    #[test]
    fn a_data_map_of_other_bytes_is_refused() {
        let (bytes, hot, mut map) = module();
        map.hash ^= 1;
        let err = split(&bytes, &HashSet::from([hot]), Some(&map)).err().unwrap();
        assert!(err.contains("another build"), "{err}");
    }

    #[test]
    fn without_a_data_map_no_data_moves() {
        let (bytes, hot, _) = module();
        let out = split(&bytes, &HashSet::from([hot]), None).unwrap();
        assert_eq!(out.data, MovedData::default());
        let primary = Module::from_buffer(&out.primary).unwrap();
        assert_eq!(bytes_at(&primary, B.0, 8), B.1);
    }
}
