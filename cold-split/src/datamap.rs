//! The data map: what the linker knows about the module's data and the build steps after it
//! forget. The core is linked with `--emit-relocs`, so its `linking` and `reloc.*` sections say
//! where each data symbol lies and every place code or data names one. [`read`] takes that, and
//! [`strip`] gives the module back without those sections (the same module a plain link writes).
//! The split uses the map to move read-only data only cold code names (see `data.rs`).
//!
//! The map is text, one record per line:
//!
//! ```text
//! skillwasm-datamap 1 <hash of the read-only bytes, hex>
//! r <start> <end>     a read-only range (a segment named .rodata*)
//! s <start> <end>     a data symbol; symbols are numbered in order from 0
//! c <value> <symbol>  code writes the address <value>, which names <symbol>
//! p <address> <symbol> the 4-byte word at <address> points into <symbol>
//! ```

use std::collections::HashMap;
use wasmparser::{
    DataKind, KnownCustom, Linking, Operator, Parser, Payload, RelocSectionReader, RelocationType, SymbolInfo,
};

/// The first word of a data map.
const HEADER: &str = "skillwasm-datamap";
const VERSION: u32 = 1;
/// The most read-only data a module may span (the core's is about 50 KB).
const MAX_READONLY_BYTES: u32 = 256 << 20;
/// A data map larger than this is refused (a map of the core is about 100 KB).
const MAX_MAP_BYTES: usize = 64 << 20;

/// What the linker said about the module's data.
#[derive(Debug, Default, PartialEq)]
pub struct DataMap {
    /// FNV-1a of the read-only ranges' bytes in memory order: a map of another build is refused.
    pub hash: u64,
    /// Read-only address ranges, `[start, end)`.
    pub readonly: Vec<(u32, u32)>,
    /// Data symbols, `[start, end)`.
    pub symbols: Vec<(u32, u32)>,
    /// Addresses code writes, each with the symbol it names.
    pub code: Vec<(u32, u32)>,
    /// Pointer words in data: the word's address and the symbol it points into.
    pub pointers: Vec<(u32, u32)>,
}

/// FNV-1a over the bytes of `ranges` in `image` (address → byte; absent bytes are zero).
pub fn readonly_hash(ranges: &[(u32, u32)], byte_at: impl Fn(u32) -> u8) -> u64 {
    crate::profile::fnv1a(ranges.iter().flat_map(|&(start, end)| start..end).map(byte_at))
}

/// An active segment's start address, when its offset is a constant.
fn const_offset(expr: &wasmparser::ConstExpr) -> Option<u32> {
    let mut ops = expr.get_operators_reader();
    match ops.read().ok()? {
        // An address: the constant's bits, unsigned.
        Operator::I32Const { value } => Some(value as u32),
        _ => None,
    }
}

/// A data segment of the linked module: where it lies in memory and in the data section.
struct Segment {
    address: u32,
    /// Offset of its bytes from the start of the data section's contents.
    section_offset: usize,
    len: usize,
}

/// Reads the data map of a module linked with `--emit-relocs`.
pub fn read(bytes: &[u8]) -> Result<DataMap, String> {
    let err = |e: wasmparser::BinaryReaderError| format!("not a wasm module: {e}");
    let mut segments: Vec<Segment> = Vec::new();
    let mut segment_data: Vec<&[u8]> = Vec::new();
    // The data section's index among the module's sections (the one reloc.DATA names).
    let mut data_section: Option<u32> = None;
    let mut code_section: Option<u32> = None;
    let mut section_index: u32 = 0;
    let mut segment_names: Vec<String> = Vec::new();
    let mut symbols: Vec<Option<(u32, u32, u32)>> = Vec::new(); // (segment, offset, size)
    let mut relocs: Vec<(u32, Vec<wasmparser::RelocationEntry>)> = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(err)?;
        if payload.as_section().is_some() {
            section_index += 1;
        }
        match payload {
            Payload::CodeSectionStart { .. } => code_section = Some(section_index - 1),
            Payload::DataSection(reader) => {
                let start = reader.range().start;
                data_section = Some(section_index - 1);
                for data in reader {
                    let data = data.map_err(err)?;
                    let DataKind::Active { memory_index: 0, offset_expr } = &data.kind else { continue };
                    let Some(address) = const_offset(offset_expr) else { continue };
                    let at = data.data.as_ptr() as usize - bytes.as_ptr() as usize;
                    segments.push(Segment { address, section_offset: at - start, len: data.data.len() });
                    segment_data.push(data.data);
                }
            }
            Payload::CustomSection(reader) => match reader.as_known() {
                KnownCustom::Linking(linking) => {
                    for sub in linking.subsections() {
                        match sub.map_err(err)? {
                            Linking::SegmentInfo(map) => {
                                for s in map {
                                    segment_names.push(s.map_err(err)?.name.to_string());
                                }
                            }
                            Linking::SymbolTable(map) => {
                                for s in map {
                                    symbols.push(match s.map_err(err)? {
                                        SymbolInfo::Data { symbol: Some(d), .. } => Some((d.index, d.offset, d.size)),
                                        _ => None,
                                    });
                                }
                            }
                            _ => {}
                        }
                    }
                }
                KnownCustom::Reloc(reader) => relocs.push(read_relocs(reader)?),
                _ => {}
            },
            _ => {}
        }
    }
    if segment_names.is_empty() && !segments.is_empty() {
        return Err("the module has no linking section: link it with --emit-relocs".to_string());
    }
    let data_index = data_section.ok_or("the module has no data section")?;
    // Symbols as address ranges, numbered in the map's own order.
    let mut map = DataMap::default();
    let mut symbol_of: HashMap<u32, u32> = HashMap::new();
    for (i, s) in symbols.iter().enumerate() {
        let Some((segment, offset, size)) = *s else { continue };
        let Some(seg) = segments.get(segment as usize) else { continue };
        let start = seg.address.checked_add(offset).ok_or("a data symbol past 4 GiB")?;
        let end = start.checked_add(size).ok_or("a data symbol past 4 GiB")?;
        symbol_of.insert(i as u32, map.symbols.len() as u32);
        map.symbols.push((start, end));
    }
    for (seg, name) in segments.iter().zip(&segment_names) {
        if name == ".rodata" || name.starts_with(".rodata.") {
            let end = seg.address + seg.len as u32;
            map.readonly.push((seg.address, end));
        }
    }
    map.readonly.sort_unstable();
    for (section, entries) in &relocs {
        for r in entries {
            if !names_memory(r.ty) {
                continue;
            }
            // Every address in code or data must name a defined data symbol: one the map cannot
            // place would let data it names look unnamed, so such a module has no map.
            let Some(&symbol) = symbol_of.get(&r.index) else {
                return Err(format!("a relocation names symbol {}, which is not defined data", r.index));
            };
            let value = (i64::from(map.symbols[symbol as usize].0) + r.addend) as u32;
            if Some(*section) == code_section {
                map.code.push((value, symbol));
            } else if *section == data_index {
                // The word's address: the segment whose bytes hold the relocated offset (the
                // segments lie in the section in order).
                let at = r.offset as usize;
                let k = segments.partition_point(|s| s.section_offset + s.len <= at);
                let Some(seg) = segments.get(k).filter(|s| at >= s.section_offset) else {
                    return Err(format!("a pointer at offset {at} of the data section is in no segment"));
                };
                map.pointers.push((seg.address + (at - seg.section_offset) as u32, symbol));
            }
        }
    }
    map.code.sort_unstable();
    map.code.dedup();
    map.pointers.sort_unstable();
    // The read-only bytes as memory holds them, laid out once, then hashed in address order.
    let lo = map.readonly.iter().map(|r| r.0).min().unwrap_or(0);
    let hi = map.readonly.iter().map(|r| r.1).max().unwrap_or(0);
    if hi - lo > MAX_READONLY_BYTES {
        return Err("the module's read-only data is too large".to_string());
    }
    let mut image = vec![0u8; (hi - lo) as usize];
    for (seg, data) in segments.iter().zip(&segment_data) {
        for (k, b) in data.iter().enumerate() {
            if let Some(slot) = (seg.address as usize + k).checked_sub(lo as usize).and_then(|i| image.get_mut(i)) {
                *slot = *b;
            }
        }
    }
    map.hash = readonly_hash(&map.readonly, |a| image.get((a - lo) as usize).copied().unwrap_or(0));
    Ok(map)
}

fn read_relocs(reader: RelocSectionReader<'_>) -> Result<(u32, Vec<wasmparser::RelocationEntry>), String> {
    let section = reader.section_index();
    let entries = reader.entries().into_iter().collect::<Result<Vec<_>, _>>().map_err(|e| format!("{e}"))?;
    Ok((section, entries))
}

/// Whether a relocation writes a memory address.
fn names_memory(ty: RelocationType) -> bool {
    use RelocationType::*;
    matches!(
        ty,
        MemoryAddrLeb
            | MemoryAddrSleb
            | MemoryAddrI32
            | MemoryAddrRelSleb
            | MemoryAddrLeb64
            | MemoryAddrSleb64
            | MemoryAddrI64
            | MemoryAddrRelSleb64
            | MemoryAddrTlsSleb
            | MemoryAddrLocrelI32
            | MemoryAddrTlsSleb64
    )
}

/// The module without its `linking` and `reloc.*` sections, every other byte as it was.
pub fn strip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let bad = || "not a wasm module".to_string();
    let mut out = bytes.get(..8).ok_or_else(bad)?.to_vec();
    let mut at = 8;
    while at < bytes.len() {
        let id = bytes[at];
        let (size, contents) = leb_u32(bytes, at + 1).ok_or_else(bad)?;
        let end = contents.checked_add(size as usize).filter(|e| *e <= bytes.len()).ok_or_else(bad)?;
        let custom_name = if id == 0 {
            let (len, name_at) = leb_u32(bytes, contents).ok_or_else(bad)?;
            bytes.get(name_at..name_at + len as usize)
        } else {
            None
        };
        let drop = custom_name.is_some_and(|n| n == b"linking" || n.starts_with(b"reloc."));
        if !drop {
            out.extend_from_slice(&bytes[at..end]);
        }
        at = end;
    }
    Ok(out)
}

/// An unsigned LEB128 of at most 5 bytes at `at`: its value and where it ends.
fn leb_u32(bytes: &[u8], at: usize) -> Option<(u32, usize)> {
    let mut value: u32 = 0;
    for k in 0..5 {
        let b = *bytes.get(at + k)?;
        value |= u32::from(b & 0x7f).checked_shl(7 * k as u32)?;
        if b & 0x80 == 0 {
            return Some((value, at + k + 1));
        }
    }
    None
}

impl DataMap {
    /// The map as text (see the module's documentation).
    pub fn to_text(&self) -> String {
        let mut out = format!("{HEADER} {VERSION} {:016x}\n", self.hash);
        let mut line = |tag: char, a: u32, b: u32| out.push_str(&format!("{tag} {a} {b}\n"));
        self.readonly.iter().for_each(|&(a, b)| line('r', a, b));
        self.symbols.iter().for_each(|&(a, b)| line('s', a, b));
        self.code.iter().for_each(|&(a, b)| line('c', a, b));
        self.pointers.iter().for_each(|&(a, b)| line('p', a, b));
        out
    }

    /// Reads a map written by [`DataMap::to_text`].
    pub fn parse(text: &str) -> Result<DataMap, String> {
        if text.len() > MAX_MAP_BYTES {
            return Err("the data map is too large".to_string());
        }
        let mut lines = text.lines();
        let header = lines.next().unwrap_or_default();
        let mut words = header.split(' ');
        if words.next() != Some(HEADER) || words.next() != Some(&VERSION.to_string()) {
            return Err(format!("not a data map of version {VERSION}"));
        }
        let hash = words.next().and_then(|h| u64::from_str_radix(h, 16).ok()).ok_or("the data map has no hash")?;
        let mut map = DataMap { hash, ..DataMap::default() };
        for (n, line) in lines.enumerate() {
            let bad = || format!("data map line {}: {line:?}", n + 2);
            let mut words = line.split(' ');
            let tag = words.next().ok_or_else(bad)?;
            let mut num = || words.next().and_then(|w| w.parse::<u32>().ok()).ok_or_else(bad);
            let (a, b) = (num()?, num()?);
            match tag {
                "r" | "s" if a > b => return Err(bad()),
                "r" => map.readonly.push((a, b)),
                "s" => map.symbols.push((a, b)),
                "c" | "p" if b as usize >= map.symbols.len() => return Err(bad()),
                "c" => map.code.push((a, b)),
                "p" => map.pointers.push((a, b)),
                _ => return Err(bad()),
            }
        }
        map.code.sort_unstable();
        map.pointers.sort_unstable();
        map.readonly.sort_unstable();
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use walrus::{Module, ModuleConfig, RawCustomSection};

    fn sample() -> DataMap {
        DataMap {
            hash: 0x0123_4567_89ab_cdef,
            readonly: vec![(1024, 2048)],
            symbols: vec![(1024, 1030), (1030, 1100)],
            code: vec![(1024, 0), (1036, 1)],
            pointers: vec![(1032, 0)],
        }
    }

    #[test]
    fn a_map_reads_back_as_written() {
        let map = sample();
        assert_eq!(DataMap::parse(&map.to_text()).unwrap(), map);
    }

    #[test]
    fn a_damaged_map_is_refused() {
        let text = sample().to_text();
        for bad in [
            text.replace("skillwasm-datamap 1", "skillwasm-datamap 2"),
            text.replace("c 1036 1", "c 1036 9"),
            text.replace("s 1030 1100", "s 1100 1030"),
            format!("{text}x 1 2\n"),
            format!("{text}p 1\n"),
        ] {
            assert!(DataMap::parse(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strip_drops_the_linker_sections_alone() {
        let mut m = Module::with_config(ModuleConfig::new());
        for name in ["linking", "reloc.CODE", "reloc.DATA", "keep.me"] {
            m.customs.add(RawCustomSection { name: name.to_string(), data: vec![1, 2, 3] });
        }
        let stripped = strip(&m.emit_wasm()).unwrap();
        let names: Vec<String> =
            Module::from_buffer(&stripped).unwrap().customs.iter().map(|(_, c)| c.name().to_string()).collect();
        assert_eq!(names, ["keep.me"]);
    }

    /// Appends `v` as an unsigned LEB128.
    fn leb(mut v: u32, out: &mut Vec<u8>) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            out.push(if v == 0 { b } else { b | 0x80 });
            if v == 0 {
                break;
            }
        }
    }

    /// A custom section named `name` holding `body`.
    fn custom(name: &str, body: &[u8]) -> Vec<u8> {
        let mut contents = Vec::new();
        leb(name.len() as u32, &mut contents);
        contents.extend_from_slice(name.as_bytes());
        contents.extend_from_slice(body);
        let mut out = vec![0];
        leb(contents.len() as u32, &mut out);
        out.extend(contents);
        out
    }

    /// A module as a linker with `--emit-relocs` writes it: a `.rodata` segment of eight bytes at
    /// 1024 (data symbol 0), a function (symbol 1), a code relocation naming symbol `code_symbol`
    /// at 1024 + 2, and a pointer word in the segment's bytes naming symbol 0 at 1024 + 4.
    fn linked(code_symbol: u32) -> Vec<u8> {
        let mut m = Module::with_config(ModuleConfig::new());
        let memory = m.memories.add_local(false, false, 1, None, None);
        let offset = walrus::ConstExpr::Value(walrus::ir::Value::I32(1024));
        m.data.add(walrus::DataKind::Active { memory, offset }, b"DDDDDDDD".to_vec());
        let mut f = walrus::FunctionBuilder::new(&mut m.types, &[], &[]);
        f.func_body().i32_const(1026).drop();
        let f = f.finish(vec![], &mut m.funcs);
        m.exports.add("f", f);
        let mut bytes = m.emit_wasm();
        // The indices of the code and data sections, and where the segment's bytes start in the
        // data section's contents.
        let (mut at, mut index, mut code, mut data, mut in_data) = (8, 0u32, 0, 0, 0);
        while at < bytes.len() {
            let (size, contents) = leb_u32(&bytes, at + 1).unwrap();
            match bytes[at] {
                10 => code = index,
                11 => {
                    data = index;
                    in_data = bytes[contents..].windows(8).position(|w| w == b"DDDDDDDD").unwrap();
                }
                _ => {}
            }
            index += 1;
            at = contents + size as usize;
        }
        let mut linking = vec![2]; // version
        let mut segments = vec![1, 7];
        segments.extend_from_slice(b".rodata");
        segments.extend([0, 0]); // alignment, flags
        linking.push(5);
        leb(segments.len() as u32, &mut linking);
        linking.extend(segments);
        let symbols = [&[2u8, 1, 0, 1, b'd', 0, 0, 8][..], &[0, 0, 0, 1, b'f']].concat(); // data d; function f
        linking.push(8);
        leb(symbols.len() as u32, &mut linking);
        linking.extend(symbols);
        let mut reloc_code = Vec::new();
        leb(code, &mut reloc_code);
        reloc_code.extend([1, 4, 3]); // one MemoryAddrSleb at offset 3
        leb(code_symbol, &mut reloc_code);
        reloc_code.push(2); // addend
        let mut reloc_data = Vec::new();
        leb(data, &mut reloc_data);
        reloc_data.extend([1, 5]); // one MemoryAddrI32
        leb(in_data as u32 + 4, &mut reloc_data);
        reloc_data.extend([0, 0]); // symbol 0, addend 0
        for (name, body) in [("linking", linking), ("reloc.CODE", reloc_code), ("reloc.DATA", reloc_data)] {
            bytes.extend(custom(name, &body));
        }
        bytes
    }

    #[test]
    fn the_linker_sections_become_the_map() {
        let bytes = linked(0);
        let map = read(&bytes).unwrap();
        assert_eq!(map.readonly, [(1024, 1032)]);
        assert_eq!(map.symbols, [(1024, 1032)]);
        assert_eq!(map.code, [(1026, 0)], "the address code writes, with its symbol");
        assert_eq!(map.pointers, [(1028, 0)], "the pointer word's address, with the symbol it names");
        assert_eq!(map.hash, readonly_hash(&map.readonly, |_| b'D'));
        // The module goes on without the linker's sections, and yields no map then.
        assert!(read(&strip(&bytes).unwrap()).is_err());
    }

    #[test]
    fn a_relocation_naming_what_is_not_defined_data_is_refused() {
        let err = read(&linked(1)).err().unwrap();
        assert!(err.contains("not defined data"), "{err}");
    }

    #[test]
    fn a_module_linked_without_relocations_has_no_map() {
        let mut m = Module::with_config(ModuleConfig::new());
        let memory = m.memories.add_local(false, false, 1, None, None);
        let offset = walrus::ConstExpr::Value(walrus::ir::Value::I32(1024));
        m.data.add(walrus::DataKind::Active { memory, offset }, b"data".to_vec());
        let err = read(&m.emit_wasm()).err().unwrap();
        assert!(err.contains("--emit-relocs"), "{err}");
    }
}
