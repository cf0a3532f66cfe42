//! The split itself. Both outputs start as the whole module, parsed twice: the cold module keeps
//! the moved functions and turns everything else it uses into imports from the primary; the
//! primary keeps everything, with each moved function's body replaced by a stub that loads the
//! cold module on first use and calls the function through the table.

use crate::calls;
use std::collections::{HashMap, HashSet};
use walrus::ir::{UnaryOp, Value};
use walrus::{
    ConstExpr, ElementItems, ElementKind, ExportItem, FunctionBuilder, FunctionKind, GlobalKind, ImportKind,
    ImportedFunction, LocalFunction, Module, RefType, TableId,
};

/// The namespace the cold module imports the primary's exports from.
pub const CORE_NAMESPACE: &str = "__sw_core";
/// The JS module and function a stub calls to load the cold module: the wasm-bindgen glue hands
/// the primary `./boundary.js` as a whole, so a function exported there is found by name.
pub const LOADER_MODULE: &str = "./boundary.js";
/// See [`LOADER_MODULE`].
pub const LOADER_NAME: &str = "loadColdCode";
/// The primary's exported global that tells its stubs the cold module is in (set by the loader).
pub const LOADED_GLOBAL: &str = "__sw_cold_loaded";

/// The primary's exported global that is 1 while its stub calls the loader.
pub const CALLING_GLOBAL: &str = "__sw_cold_calling";

/// Both modules and what moved.
pub struct Split {
    /// The module every host loads.
    pub primary: Vec<u8>,
    /// The functions the profile did not see run.
    pub cold: Vec<u8>,
    /// Functions defined in the input.
    pub functions: usize,
    /// Defined functions the profile names.
    pub kept: usize,
    /// Functions moved to the cold module.
    pub moved: usize,
    /// Moved functions the primary still names, each with a stub there.
    pub stubbed: usize,
    /// The read-only data that moved with them (none without a data map).
    pub data: crate::data::MovedData,
}

fn parse(bytes: &[u8]) -> Result<Module, String> {
    Module::from_buffer(bytes).map_err(|e| format!("not a wasm module: {e}"))
}

/// Whether `func` reads or drops a data or element segment: those stay with the segments.
fn uses_segments(func: &LocalFunction) -> bool {
    struct Finder(bool);
    impl<'a> walrus::ir::Visitor<'a> for Finder {
        fn visit_memory_init(&mut self, _: &walrus::ir::MemoryInit) {
            self.0 = true;
        }
        fn visit_data_drop(&mut self, _: &walrus::ir::DataDrop) {
            self.0 = true;
        }
        fn visit_table_init(&mut self, _: &walrus::ir::TableInit) {
            self.0 = true;
        }
        fn visit_elem_drop(&mut self, _: &walrus::ir::ElemDrop) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    walrus::ir::dfs_in_order(&mut finder, func, func.entry_block());
    finder.0
}

/// The one table of functions (the one `call_indirect` goes through).
fn function_table(m: &Module) -> Result<TableId, String> {
    let mut tables = m.tables.iter().filter(|t| t.element_ty == RefType::FUNCREF);
    match (tables.next(), tables.next()) {
        (Some(t), None) => Ok(t.id()),
        _ => Err("the module must have exactly one table of functions".to_string()),
    }
}

/// Makes room for `n` functions at the end of the function table; returns where they start.
fn grow_table(m: &mut Module, n: u64) -> Result<(TableId, u64), String> {
    let id = function_table(m)?;
    let t = m.tables.get_mut(id);
    let base = t.initial;
    t.initial += n;
    if let Some(max) = &mut t.maximum {
        *max += n;
    }
    Ok((id, base))
}

/// Splits `bytes`: the defined functions whose index `keep` holds stay in the primary module.
/// With the linker's data map, the read-only data only moved functions name moves too.
pub fn split(bytes: &[u8], keep: &HashSet<usize>, map: Option<&crate::datamap::DataMap>) -> Result<Split, String> {
    let mut primary = parse(bytes)?;
    let mut cold = parse(bytes)?;
    let functions = primary.funcs.iter_local().count();
    let kept = primary.funcs.iter_local().filter(|(id, _)| keep.contains(&id.index())).count();
    let moved: Vec<usize> = primary
        .funcs
        .iter_local()
        .filter(|(id, f)| !keep.contains(&id.index()) && Some(*id) != primary.start && !uses_segments(f))
        .map(|(id, _)| id.index())
        .collect();
    // Only a moved function the primary still names (a kept function calls it, an export or the
    // table holds it) needs a stub and a slot; the others are called from cold code alone.
    let moved_set: HashSet<usize> = moved.iter().copied().collect();
    let named = named_by_primary(&primary, &moved_set);
    let stubbed: Vec<usize> = moved.iter().copied().filter(|i| named.contains(i)).collect();
    // The functions cold code calls get slots after the stubs' (see calls.rs).
    let called = calls::called_from_cold(&primary, &moved_set);
    let n = u64::try_from(stubbed.len() + called.len()).map_err(|_| "too many functions")?;
    let (table, base) = grow_table(&mut primary, n)?;
    let (cold_table, _) = grow_table(&mut cold, n)?;
    build_cold(&mut cold, &moved_set, &stubbed, base)?;
    let called_base = base + stubbed.len() as u64;
    calls::call_through_table(&mut cold, &called, cold_table, called_base)?;
    calls::fill_slots(&mut primary, &called, table, called_base)?;
    stub_primary(&mut primary, &moved, &stubbed, table, base)?;
    let data = match map {
        Some(map) => crate::data::move_data(&mut primary, &mut cold, map)?,
        None => crate::data::MovedData::default(),
    };
    // What the cold module no longer uses goes (after the data, which keeps its memory).
    walrus::passes::gc::run(&mut cold);
    let cold_bytes = cold.emit_wasm();
    export_for_cold(&mut primary, &cold)?;
    walrus::passes::gc::run(&mut primary);
    Ok(Split {
        primary: primary.emit_wasm(),
        cold: cold_bytes,
        functions,
        kept,
        moved: moved.len(),
        stubbed: stubbed.len(),
        data,
    })
}

/// The moved functions (indices in `moved`) that kept functions call or reference, that are
/// exported, or that an element segment holds.
fn named_by_primary(m: &Module, moved: &HashSet<usize>) -> HashSet<usize> {
    let mut found: HashSet<usize> =
        calls::functions_referenced(m, |i| !moved.contains(&i)).into_iter().filter(|i| moved.contains(i)).collect();
    let mut add = |f: walrus::FunctionId| {
        if moved.contains(&f.index()) {
            found.insert(f.index());
        }
    };
    for e in m.exports.iter() {
        if let ExportItem::Function(f) = e.item {
            add(f);
        }
    }
    for e in m.elements.iter() {
        match &e.items {
            ElementItems::Functions(fs) => fs.iter().for_each(|f| add(*f)),
            ElementItems::Expressions(_, exprs) => {
                for expr in exprs {
                    if let ConstExpr::RefFunc(f) = expr {
                        add(*f);
                    }
                }
            }
        }
    }
    found
}

/// Turns the cold copy into the module of the moved functions: every other function, global,
/// table and memory is imported from the primary (named `__sw_` and `f`, `g`, `t` or `m` and
/// its index; shorter names made the primary larger gzip'd), the
/// segments and exports are gone, and one element segment puts the stubbed functions into the
/// function table from `base` on, in order. What it no longer uses is collected by the caller.
fn build_cold(m: &mut Module, moved: &HashSet<usize>, stubbed: &[usize], base: u64) -> Result<(), String> {
    let by_index = calls::function_ids(m);
    let funcs: Vec<_> = m.funcs.iter().map(|f| (f.id(), f.ty(), matches!(f.kind, FunctionKind::Local(_)))).collect();
    for (id, ty, local) in funcs {
        if moved.contains(&id.index()) {
            continue;
        }
        let name = format!("__sw_f{}", id.index());
        if local {
            let import = m.imports.add(CORE_NAMESPACE, &name, ImportKind::Function(id));
            m.funcs.get_mut(id).kind = FunctionKind::Import(ImportedFunction { import, ty });
        } else if let FunctionKind::Import(f) = &m.funcs.get(id).kind {
            let import = f.import;
            rename(m, import, name);
        }
    }
    let globals: Vec<_> = m
        .globals
        .iter()
        .map(|g| (g.id(), if let GlobalKind::Import(import) = g.kind { Some(import) } else { None }))
        .collect();
    for (id, import) in globals {
        if let Some(import) = import_from_core(m, import, format!("__sw_g{}", id.index()), ImportKind::Global(id)) {
            m.globals.get_mut(id).kind = GlobalKind::Import(import);
        }
    }
    let tables: Vec<_> = m.tables.iter().map(|t| (t.id(), t.import)).collect();
    for (id, import) in tables {
        let new = import_from_core(m, import, format!("__sw_t{}", id.index()), ImportKind::Table(id));
        let t = m.tables.get_mut(id);
        if new.is_some() {
            t.import = new;
            t.init = None;
        }
        t.elem_segments.clear();
    }
    let memories: Vec<_> = m.memories.iter().map(|t| (t.id(), t.import)).collect();
    for (id, import) in memories {
        let new = import_from_core(m, import, format!("__sw_m{}", id.index()), ImportKind::Memory(id));
        let memory = m.memories.get_mut(id);
        if new.is_some() {
            memory.import = new;
        }
        memory.data_segments.clear();
    }
    let data: Vec<_> = m.data.iter().map(|d| d.id()).collect();
    for id in data {
        m.data.delete(id);
    }
    let elements: Vec<_> = m.elements.iter().map(|e| e.id()).collect();
    for id in elements {
        m.elements.delete(id);
    }
    let exports: Vec<_> = m.exports.iter().map(|e| e.id()).collect();
    for id in exports {
        m.exports.delete(id);
    }
    m.start = None;
    let table = function_table(m)?;
    let items = stubbed.iter().filter_map(|i| by_index.get(i).copied()).collect();
    let segment = m.elements.add(
        ElementKind::Active { table, offset: ConstExpr::Value(Value::I32(calls::slot(base, 0)?)) },
        ElementItems::Functions(items),
    );
    m.tables.get_mut(table).elem_segments.insert(segment);
    Ok(())
}

fn rename(m: &mut Module, import: walrus::ImportId, name: String) {
    let i = m.imports.get_mut(import);
    i.module = CORE_NAMESPACE.to_string();
    i.name = name;
}

/// An item of the cold copy taken from the primary as `name`: an import already is renamed
/// (none returned); a defined one gets a new import, returned for the caller to attach.
fn import_from_core(
    m: &mut Module,
    existing: Option<walrus::ImportId>,
    name: String,
    kind: ImportKind,
) -> Option<walrus::ImportId> {
    match existing {
        Some(import) => {
            rename(m, import, name);
            None
        }
        None => Some(m.imports.add(CORE_NAMESPACE, &name, kind)),
    }
}

/// Replaces each stubbed function's body with its stub: load the cold module unless it is in,
/// then call the function at its slot of the table with the same arguments.
fn stub_primary(m: &mut Module, moved: &[usize], stubbed: &[usize], table: TableId, base: u64) -> Result<(), String> {
    let loaded = m.globals.add_local(walrus::ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
    m.exports.add(LOADED_GLOBAL, loaded);
    // Set while the loader runs: tells it which of the core instances in the realm asks.
    let calling = m.globals.add_local(walrus::ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
    m.exports.add(CALLING_GLOBAL, calling);
    let load_ty = m.types.add(&[], &[]);
    let (load, _) = m.add_import_func(LOADER_MODULE, LOADER_NAME, load_ty);
    // One function makes sure the cold module is in; each stub calls it (smaller than the check
    // in every stub).
    let mut ensure = FunctionBuilder::new(&mut m.types, &[], &[]);
    ensure.func_body().global_get(loaded).unop(UnaryOp::I32Eqz).if_else(
        None,
        |then| {
            then.i32_const(1).global_set(calling).call(load).i32_const(0).global_set(calling);
        },
        |_| {},
    );
    let ensure = ensure.finish(Vec::new(), &mut m.funcs);
    let by_index = calls::function_ids(m);
    // A moved function without a stub is named by cold code alone: its body goes, and with no
    // caller left in the primary, the collection that follows removes it.
    let stubbed_set: HashSet<usize> = stubbed.iter().copied().collect();
    for index in moved.iter().filter(|i| !stubbed_set.contains(i)) {
        let Some(&id) = by_index.get(index) else { continue };
        let ty = m.funcs.get(id).ty();
        let (params, results) = (m.types.params(ty).to_vec(), m.types.results(ty).to_vec());
        let mut builder = FunctionBuilder::new(&mut m.types, &params, &results);
        let args: Vec<_> = params.iter().map(|t| m.locals.add(*t)).collect();
        builder.func_body().unreachable();
        m.funcs.get_mut(id).kind = FunctionKind::Local(builder.local_func(args));
    }
    for (k, index) in stubbed.iter().enumerate() {
        if let Some(&id) = by_index.get(index) {
            calls::call_slot(m, id, table, calls::slot(base, k)?, Some(ensure));
        }
    }
    Ok(())
}

/// Exports from the primary whatever the cold module imports from it, under the import's name.
fn export_for_cold(primary: &mut Module, cold: &Module) -> Result<(), String> {
    let funcs = calls::function_ids(primary);
    let globals: HashMap<usize, _> = primary.globals.iter().map(|g| (g.id().index(), g.id())).collect();
    let tables: HashMap<usize, _> = primary.tables.iter().map(|t| (t.id().index(), t.id())).collect();
    let memories: HashMap<usize, _> = primary.memories.iter().map(|t| (t.id().index(), t.id())).collect();
    let taken: HashSet<String> = primary.exports.iter().map(|e| e.name.clone()).collect();
    for import in cold.imports.iter().filter(|i| i.module == CORE_NAMESPACE) {
        if taken.contains(&import.name) {
            return Err(format!("the primary exports {} already", import.name));
        }
        let missing = || format!("the cold module imports {} that the primary lacks", import.name);
        let item: ExportItem = match import.kind {
            ImportKind::Function(f) => ExportItem::Function(*funcs.get(&f.index()).ok_or_else(missing)?),
            ImportKind::Global(g) => ExportItem::Global(*globals.get(&g.index()).ok_or_else(missing)?),
            ImportKind::Table(t) => ExportItem::Table(*tables.get(&t.index()).ok_or_else(missing)?),
            ImportKind::Memory(mem) => ExportItem::Memory(*memories.get(&mem.index()).ok_or_else(missing)?),
            ImportKind::Tag(_) => return Err("exception tags are not supported".to_string()),
        };
        primary.exports.add(&import.name, item);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use walrus::{FunctionBuilder, Module, ModuleConfig, ValType};

    /// A module with a memory, a table, a mutable global and three exported functions: `hot`
    /// calls `helper`; `rare` calls `helper` too and is the one left out of the profile.
    fn module() -> (Vec<u8>, usize, usize) {
        let mut m = Module::with_config(ModuleConfig::new());
        let memory = m.memories.add_local(false, false, 1, None, None);
        m.exports.add("memory", memory);
        m.tables.add_local(false, 1, Some(1), walrus::RefType::FUNCREF);
        let global = m.globals.add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(7)));
        let mut helper = FunctionBuilder::new(&mut m.types, &[ValType::I32], &[ValType::I32]);
        let x = m.locals.add(ValType::I32);
        helper.func_body().local_get(x).global_get(global).binop(walrus::ir::BinaryOp::I32Add);
        let helper = helper.finish(vec![x], &mut m.funcs);
        let mut ids = Vec::new();
        for name in ["hot", "rare"] {
            let mut f = FunctionBuilder::new(&mut m.types, &[], &[ValType::I32]);
            f.func_body().i32_const(1).call(helper);
            let id = f.finish(vec![], &mut m.funcs);
            m.exports.add(name, id);
            ids.push(id);
        }
        (m.emit_wasm(), helper.index(), ids[0].index())
    }

    #[test]
    fn a_function_out_of_the_profile_moves_and_leaves_a_stub() {
        let (bytes, helper, hot) = module();
        let out = split(&bytes, &HashSet::from([helper, hot]), None).unwrap();
        assert_eq!((out.functions, out.kept, out.moved, out.stubbed), (3, 2, 1, 1));

        // Both outputs parse (walrus validates them).
        let primary = Module::from_buffer(&out.primary).unwrap();
        let cold = Module::from_buffer(&out.cold).unwrap();

        // The primary loads the cold module through boundary.js and says when it has.
        assert!(primary.imports.iter().any(|i| i.module == LOADER_MODULE && i.name == LOADER_NAME));
        assert!(primary.exports.iter().any(|e| e.name == LOADED_GLOBAL));
        assert!(primary.exports.iter().any(|e| e.name == CALLING_GLOBAL));
        // `rare` is still exported from the primary (its stub); the table has a slot for it and
        // one for `helper`, which cold code calls, put there by the primary's element segment.
        assert!(primary.exports.iter().any(|e| e.name == "rare"));
        assert_eq!(primary.tables.iter().next().unwrap().initial, 3);
        let slots: Vec<_> = primary
            .elements
            .iter()
            .filter_map(|e| match (&e.kind, &e.items) {
                (ElementKind::Active { offset: ConstExpr::Value(Value::I32(at)), .. }, ElementItems::Functions(f)) => {
                    Some((*at, f.iter().map(|f| primary.funcs.get(*f).ty()).collect::<Vec<_>>()))
                }
                _ => None,
            })
            .collect();
        // (`helper` is the one function of its type, `[i32] -> [i32]`.)
        let [(2, tys)] = slots.as_slice() else { panic!("{slots:?}") };
        assert!(tys.len() == 1 && primary.types.params(tys[0]) == [ValType::I32], "{slots:?}");

        // The cold module defines `rare` and the function that calls `helper`'s slot, and
        // imports the rest from the primary, which exports each under the import's name; no
        // function is imported.
        let defined: Vec<_> = cold.funcs.iter_local().map(|(_, f)| f.ty()).collect();
        assert_eq!(defined.len(), 2);
        assert!(cold.exports.iter().next().is_none());
        let imported: Vec<&str> = cold.imports.iter().map(|i| i.name.as_str()).collect();
        assert!(cold.imports.iter().all(|i| i.module == CORE_NAMESPACE), "{imported:?}");
        assert!(!imported.iter().any(|n| n.starts_with("__sw_f")), "{imported:?}");
        assert!(imported.iter().any(|n| n.starts_with("__sw_t")), "the table: {imported:?}");
        for name in &imported {
            assert!(primary.exports.iter().any(|e| e.name == *name), "the primary does not export {name}");
        }
        // Its element segment writes `rare` into the slot after the table's own.
        let segment = cold.elements.iter().next().unwrap();
        match &segment.kind {
            ElementKind::Active { offset: ConstExpr::Value(Value::I32(1)), .. } => {}
            other => panic!("unexpected segment {other:?}"),
        }
    }

    #[test]
    fn a_module_without_a_table_of_functions_is_refused() {
        let mut m = Module::with_config(ModuleConfig::new());
        let f = FunctionBuilder::new(&mut m.types, &[], &[]).finish(vec![], &mut m.funcs);
        m.exports.add("f", f);
        assert!(split(&m.emit_wasm(), &HashSet::new(), None).is_err());
    }
}
