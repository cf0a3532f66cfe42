//! Calls through the shared function table, and what the split needs to know of calls. Cold code
//! calls the primary's functions through the table: an element segment
//! of the primary puts each function the moved code calls into a slot of its own, and in the cold
//! module each of them is a function that calls its slot (wasm-opt inlines those). Exporting them
//! by name instead cost the primary a name each (about 500 names).

use std::collections::{BTreeSet, HashMap, HashSet};
use walrus::ir::Value;
use walrus::{ConstExpr, ElementItems, ElementKind, FunctionBuilder, FunctionId, FunctionKind, Module, TableId};

/// The functions that the bodies of the defined functions `bodies` accepts (by index) call or
/// reference, in index order.
pub fn functions_referenced(m: &Module, bodies: impl Fn(usize) -> bool) -> BTreeSet<usize> {
    struct Refs(BTreeSet<usize>);
    impl<'a> walrus::ir::Visitor<'a> for Refs {
        fn visit_call(&mut self, instr: &walrus::ir::Call) {
            self.0.insert(instr.func.index());
        }
        fn visit_ref_func(&mut self, instr: &walrus::ir::RefFunc) {
            self.0.insert(instr.func.index());
        }
        fn visit_return_call(&mut self, instr: &walrus::ir::ReturnCall) {
            self.0.insert(instr.func.index());
        }
    }
    let mut refs = Refs(BTreeSet::new());
    for (id, func) in m.funcs.iter_local() {
        if bodies(id.index()) {
            walrus::ir::dfs_in_order(&mut refs, func, func.entry_block());
        }
    }
    refs.0
}

/// The functions outside `moved` that moved functions call or reference, in index order.
pub fn called_from_cold(m: &Module, moved: &HashSet<usize>) -> Vec<usize> {
    functions_referenced(m, |i| moved.contains(&i)).into_iter().filter(|i| !moved.contains(i)).collect()
}

/// Every function of `m` by its index.
pub fn function_ids(m: &Module) -> HashMap<usize, FunctionId> {
    m.funcs.iter().map(|f| (f.id().index(), f.id())).collect()
}

/// Slot `base + k` of the table.
pub fn slot(base: u64, k: usize) -> Result<i32, String> {
    i32::try_from(base + k as u64).map_err(|_| "the function table is too large".to_string())
}

/// Makes `id` a function that calls `first` (when given), then slot `at` of `table` with its own
/// arguments, and returns what that returns. An imported `id` stops being an import.
pub fn call_slot(m: &mut Module, id: FunctionId, table: TableId, at: i32, first: Option<FunctionId>) {
    let ty = m.funcs.get(id).ty();
    if let FunctionKind::Import(f) = &m.funcs.get(id).kind {
        let import = f.import;
        m.imports.delete(import);
    }
    let (params, results) = (m.types.params(ty).to_vec(), m.types.results(ty).to_vec());
    let mut builder = FunctionBuilder::new(&mut m.types, &params, &results);
    let args: Vec<_> = params.iter().map(|t| m.locals.add(*t)).collect();
    let mut body = builder.func_body();
    if let Some(first) = first {
        body.call(first);
    }
    for a in &args {
        body.local_get(*a);
    }
    body.i32_const(at).call_indirect(ty, table);
    m.funcs.get_mut(id).kind = FunctionKind::Local(builder.local_func(args));
}

/// In the cold module: each function of `called` (an import from the primary by now) becomes a
/// function that calls slot `base + k` of `table` with its arguments.
pub fn call_through_table(m: &mut Module, called: &[usize], table: TableId, base: u64) -> Result<(), String> {
    let ids = function_ids(m);
    for (k, index) in called.iter().enumerate() {
        if let Some(&id) = ids.get(index) {
            call_slot(m, id, table, slot(base, k)?, None);
        }
    }
    Ok(())
}

/// In the primary: an element segment puts the functions of `called` into `table` from `base` on.
pub fn fill_slots(m: &mut Module, called: &[usize], table: TableId, base: u64) -> Result<(), String> {
    if called.is_empty() {
        return Ok(());
    }
    let ids = function_ids(m);
    let items = called
        .iter()
        .map(|i| {
            ids.get(i).copied().ok_or_else(|| format!("the cold module calls function {i}, which the primary lacks"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let offset = ConstExpr::Value(Value::I32(slot(base, 0)?));
    let segment = m.elements.add(ElementKind::Active { table, offset }, ElementItems::Functions(items));
    m.tables.get_mut(table).elem_segments.insert(segment);
    Ok(())
}
