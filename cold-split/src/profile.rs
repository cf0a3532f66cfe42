//! The profile: which functions of a module ran. `instrument` makes a module that reports each
//! function the first time it runs; the profile a run writes names them by their index in the
//! module's function index space, after a line that identifies the module (its length and an
//! FNV-1a hash of its bytes).

use std::collections::HashSet;
use walrus::ir::UnaryOp;
use walrus::{ConstExpr, FunctionKind, Module, ValType};

/// The import namespace of the instrumented module's report function.
pub const PROFILE_NAMESPACE: &str = "__sw_profile";

/// FNV-1a, 64 bits: enough to tell one build of a module from another.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The line that identifies the module a profile was taken of.
pub fn module_line(bytes: &[u8]) -> String {
    format!("module {} {:016x}", bytes.len(), fnv1a(bytes.iter().copied()))
}

/// A copy of the module whose every defined function calls `__sw_profile.hit(index)` the first
/// time it runs (a mutable global per function remembers that it did).
pub fn instrument(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut m = Module::from_buffer(bytes).map_err(|e| format!("not a wasm module: {e}"))?;
    let hit_ty = m.types.add(&[ValType::I32], &[]);
    let (hit, _) = m.add_import_func(PROFILE_NAMESPACE, "hit", hit_ty);
    let ids: Vec<_> = m.funcs.iter_local().map(|(id, _)| id).collect();
    for id in ids {
        let index = i32::try_from(id.index()).map_err(|_| "too many functions".to_string())?;
        let seen = m.globals.add_local(ValType::I32, true, false, ConstExpr::Value(walrus::ir::Value::I32(0)));
        let FunctionKind::Local(func) = &mut m.funcs.get_mut(id).kind else { continue };
        let mut body = func.builder_mut().func_body();
        // global.get seen; i32.eqz; if (seen = 1; hit(index)) end — before the first instruction.
        body.if_else_at(
            0,
            None,
            |then| {
                then.i32_const(1).global_set(seen).i32_const(index).call(hit);
            },
            |_| {},
        );
        body.unop_at(0, UnaryOp::I32Eqz);
        body.global_get_at(0, seen);
    }
    Ok(m.emit_wasm())
}

/// The function indices a profile keeps, once its module line is found to be `bytes`'s.
pub fn parse(text: &str, bytes: &[u8]) -> Result<HashSet<usize>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let want = module_line(bytes);
    match lines.next() {
        Some(line) if line.trim() == want => {}
        Some(line) => return Err(format!("the profile is of another module ({line}; this one is {want})")),
        None => return Err("the profile is empty".to_string()),
    }
    lines.map(|l| l.trim().parse::<usize>().map_err(|_| format!("not a function index: {l:?}"))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_of_another_module_is_refused() {
        let text = format!("{}\n3\n5\n", module_line(b"one"));
        assert_eq!(parse(&text, b"one").unwrap(), HashSet::from([3, 5]));
        assert!(parse(&text, b"two").unwrap_err().contains("another module"));
        assert!(parse("", b"one").is_err());
        assert!(parse(&format!("{}\nx\n", module_line(b"one")), b"one").is_err());
    }
}
