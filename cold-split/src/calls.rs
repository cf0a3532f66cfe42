//! Cold code calls the primary's functions through the shared function table: an element segment
//! of the primary puts each function the moved code calls into a slot of its own, and in the cold
//! module each of them is a function that calls its slot (wasm-opt inlines those). Exporting them
//! by name instead cost the primary a name each (about 500 names).

use std::collections::{BTreeSet, HashMap, HashSet};
use walrus::ir::Value;
use walrus::{ConstExpr, ElementItems, ElementKind, FunctionBuilder, FunctionKind, Module, TableId};

/// The functions outside `moved` that moved functions call or reference, in index order.
pub fn called_from_cold(m: &Module, moved: &HashSet<usize>) -> Vec<usize> {
    struct Refs<'s> {
        moved: &'s HashSet<usize>,
        found: BTreeSet<usize>,
    }
    impl Refs<'_> {
        fn add(&mut self, f: walrus::FunctionId) {
            if !self.moved.contains(&f.index()) {
                self.found.insert(f.index());
            }
        }
    }
    impl<'a> walrus::ir::Visitor<'a> for Refs<'_> {
        fn visit_call(&mut self, instr: &walrus::ir::Call) {
            self.add(instr.func);
        }
        fn visit_ref_func(&mut self, instr: &walrus::ir::RefFunc) {
            self.add(instr.func);
        }
        fn visit_return_call(&mut self, instr: &walrus::ir::ReturnCall) {
            self.add(instr.func);
        }
    }
    let mut refs = Refs { moved, found: BTreeSet::new() };
    for (id, func) in m.funcs.iter_local() {
        if moved.contains(&id.index()) {
            walrus::ir::dfs_in_order(&mut refs, func, func.entry_block());
        }
    }
    refs.found.into_iter().collect()
}

fn by_index(m: &Module) -> HashMap<usize, walrus::FunctionId> {
    m.funcs.iter().map(|f| (f.id().index(), f.id())).collect()
}

/// Slot `base + k` of the table.
fn slot(base: u64, k: usize) -> Result<i32, String> {
    i32::try_from(base + k as u64).map_err(|_| "the function table is too large".to_string())
}

/// In the cold module: each function of `called` (an import from the primary by now) becomes a
/// function that calls slot `base + k` of `table` with its arguments.
pub fn call_through_table(m: &mut Module, called: &[usize], table: TableId, base: u64) -> Result<(), String> {
    let ids = by_index(m);
    for (k, index) in called.iter().enumerate() {
        let Some(&id) = ids.get(index) else { continue };
        let ty = m.funcs.get(id).ty();
        if let FunctionKind::Import(f) = &m.funcs.get(id).kind {
            let import = f.import;
            m.imports.delete(import);
        }
        let (params, results) = (m.types.params(ty).to_vec(), m.types.results(ty).to_vec());
        let mut builder = FunctionBuilder::new(&mut m.types, &params, &results);
        let args: Vec<_> = params.iter().map(|t| m.locals.add(*t)).collect();
        let mut body = builder.func_body();
        for a in &args {
            body.local_get(*a);
        }
        body.i32_const(slot(base, k)?).call_indirect(ty, table);
        m.funcs.get_mut(id).kind = FunctionKind::Local(builder.local_func(args));
    }
    Ok(())
}

/// In the primary: an element segment puts the functions of `called` into `table` from `base` on.
pub fn fill_slots(m: &mut Module, called: &[usize], table: TableId, base: u64) -> Result<(), String> {
    if called.is_empty() {
        return Ok(());
    }
    let ids = by_index(m);
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
