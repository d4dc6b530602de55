//! Functions compiled for every size of one dimension variable `b`
//! (module attribute [`BATCHED_ATTR`], written by the driver): the
//! variants `@f__b1`, `@f__b2`, ... are ordinary public functions whose
//! entries stay inside the library, and `P_f` is
//!
//! ```text
//! int32_t P_f(int64_t b, buffers...)  ->  strata_rt_batched_call(layout, variants, message, &b, buffers[])
//! int32_t P_f_packed(const int64_t *dims, void *const *buffers)
//! ```
//!
//! `layout` is the `strata_abi::batched::BatchedCall` the driver computed,
//! `variants` the variants' packed entries in the order of its sizes.

use inkwell::AddressSpace;
use inkwell::attributes::AttributeLoc;
use inkwell::module::Linkage;
use inkwell::values::BasicMetadataValueEnum;
use strata_diag::{Diagnostic, Location, Result};
use strata_ir::{AttrKind, Context, OpId};

use crate::ice;
use crate::llvm::nounwind;
use crate::state::Lowerer;

/// Module attribute: an array of dictionaries `{name, variants, layout,
/// message}`, one per function compiled for every size.
pub const BATCHED_ATTR: &str = "strata.batched";

/// One function of [`BATCHED_ATTR`].
struct Batched {
    name: String,
    variants: Vec<String>,
    layout: Vec<i64>,
    message: String,
    buffers: usize,
}

fn read(ir: &Context, module: OpId) -> Result<Vec<Batched>> {
    let Some(a) = ir.attr_of(module, BATCHED_ATTR) else {
        return Ok(vec![]);
    };
    let bad = || Diagnostic::internal(Location::unknown(), format!("malformed {BATCHED_ATTR}"));
    let AttrKind::Array(items) = ir.attr_kind(a) else {
        return Err(bad());
    };
    let mut out = Vec::new();
    for &item in items {
        let AttrKind::Dict(fields) = ir.attr_kind(item) else {
            return Err(bad());
        };
        let field = |k: &str| {
            fields
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| ir.attr_kind(*v))
        };
        let string = |k: &str| match field(k) {
            Some(AttrKind::String(s)) => Ok(s.clone()),
            _ => Err(bad()),
        };
        let list = |k: &str| match field(k) {
            Some(AttrKind::Array(v)) => Ok(v
                .iter()
                .map(|&x| ir.attr_kind(x).clone())
                .collect::<Vec<_>>()),
            _ => Err(bad()),
        };
        let variants = list("variants")?
            .into_iter()
            .map(|k| match k {
                AttrKind::String(s) => Ok(s),
                _ => Err(bad()),
            })
            .collect::<Result<Vec<_>>>()?;
        let layout = list("layout")?
            .into_iter()
            .map(|k| match k {
                AttrKind::Int { value, .. } => i64::try_from(value).map_err(|_| bad()),
                _ => Err(bad()),
            })
            .collect::<Result<Vec<_>>>()?;
        let call = strata_abi::batched::BatchedCall::from_words(&layout).ok_or_else(bad)?;
        if call.sizes.len() != variants.len() {
            return Err(bad());
        }
        out.push(Batched {
            name: string("name")?,
            variants,
            layout,
            message: string("message")?,
            buffers: call.buffers.len(),
        });
    }
    Ok(out)
}

/// `P_f` and `P_f_packed` for every function of [`BATCHED_ATTR`]; the
/// variants' own entries become internal.
pub(crate) fn batched_entries<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    ir: &Context,
    module: OpId,
) -> Result<()> {
    for f in read(ir, module)? {
        batched_entry(lw, &f)?;
    }
    Ok(())
}

fn batched_entry<'ctx>(lw: &mut Lowerer<'ctx, '_>, f: &Batched) -> Result<()> {
    let p = lw.prefix.to_string();
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let (i32t, i64t) = (lw.ll.cx.i32_type(), lw.ll.cx.i64_type());
    let mut entries = Vec::new();
    for v in &f.variants {
        for suffix in ["", "_with_scratch", "_scratch_bytes"] {
            if let Some(g) = lw.ll.module.get_function(&format!("{p}_{v}{suffix}")) {
                g.set_linkage(Linkage::Internal);
            }
        }
        let packed = lw
            .ll
            .module
            .get_function(&format!("{p}_{v}_packed"))
            .ok_or_else(|| ice(format!("no packed entry for variant {v}")))?;
        packed.set_linkage(Linkage::Internal);
        entries.push(packed.as_global_value().as_pointer_value());
    }
    let table = lw.ll.module.add_global(
        ptr.array_type(entries.len() as u32),
        None,
        &format!("{p}.{}.variants", f.name),
    );
    table.set_initializer(&ptr.const_array(&entries));
    table.set_constant(true);
    table.set_linkage(Linkage::Private);
    let words: Vec<_> = f
        .layout
        .iter()
        .map(|&w| i64t.const_int(w as u64, true))
        .collect();
    let layout = lw.ll.module.add_global(
        i64t.array_type(words.len() as u32),
        None,
        &format!("{p}.{}.layout", f.name),
    );
    layout.set_initializer(&i64t.const_array(&words));
    layout.set_constant(true);
    layout.set_linkage(Linkage::Private);
    let text = lw.ll.cx.const_string(f.message.as_bytes(), true);
    let message =
        lw.ll
            .module
            .add_global(text.get_type(), None, &format!("{p}.{}.message", f.name));
    message.set_initializer(&text);
    message.set_constant(true);
    message.set_linkage(Linkage::Private);
    let fixed: [BasicMetadataValueEnum<'ctx>; 3] = [
        layout.as_pointer_value().into(),
        table.as_pointer_value().into(),
        message.as_pointer_value().into(),
    ];
    let run = lw.ll.runtime_fn(&strata_abi::runtime::BATCHED_CALL);

    // P_f(int64_t b, buffers...)
    let mut params: Vec<inkwell::types::BasicMetadataTypeEnum<'ctx>> = vec![i64t.into()];
    params.extend(std::iter::repeat_n(
        inkwell::types::BasicMetadataTypeEnum::from(ptr),
        f.buffers,
    ));
    let direct = lw.ll.module.add_function(
        &format!("{p}_{}", f.name),
        i32t.fn_type(&params, false),
        None,
    );
    direct.add_attribute(AttributeLoc::Function, nounwind(lw.ll.cx));
    lw.ll
        .b
        .position_at_end(lw.ll.cx.append_basic_block(direct, "entry"));
    let b = direct.get_nth_param(0).ok_or_else(|| ice("no b"))?;
    let dims = lw.ll.b.build_alloca(i64t, "dims").map_err(ice)?;
    lw.ll.b.build_store(dims, b).map_err(ice)?;
    let array = lw
        .ll
        .b
        .build_array_alloca(ptr, lw.ll.i64(f.buffers.max(1) as u64), "buffers")
        .map_err(ice)?;
    for i in 0..f.buffers {
        let slot = lw.array_slot(array, i)?;
        let v = direct
            .get_nth_param(i as u32 + 1)
            .ok_or_else(|| ice("no buffer"))?;
        lw.ll.b.build_store(slot, v).map_err(ice)?;
    }
    let mut args = fixed.to_vec();
    args.push(dims.into());
    args.push(array.into());
    let status = lw.ll.call(run, &args)?.ok_or_else(|| ice("no status"))?;
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;

    // P_f_packed(const int64_t *dims, void *const *buffers)
    let packed = lw.ll.module.add_function(
        &format!("{p}_{}_packed", f.name),
        i32t.fn_type(&[ptr.into(), ptr.into()], false),
        None,
    );
    packed.add_attribute(AttributeLoc::Function, nounwind(lw.ll.cx));
    lw.ll
        .b
        .position_at_end(lw.ll.cx.append_basic_block(packed, "entry"));
    let mut args = fixed.to_vec();
    for i in 0..2 {
        args.push(
            packed
                .get_nth_param(i)
                .ok_or_else(|| ice("no parameter"))?
                .into(),
        );
    }
    let status = lw.ll.call(run, &args)?.ok_or_else(|| ice("no status"))?;
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;
    Ok(())
}
