//! Multi-output nests: element-wise values read by several element-wise
//! readers are computed once per element inside one loop nest that writes
//! every value needing a buffer, instead of each getting a buffer of its
//! own (XLA's multi-output loop fusion).
//!
//! Threefry, JAX's random bits, is the pattern that needs it: each of its
//! 20 rounds updates two arrays, and each new value is read by two or three
//! ops of the next round. Fused per reader, the expression would double
//! with every round; written to buffers, one round costs four passes over
//! memory. Here, every such value is computed in the one nest that writes
//! the rounds' two outputs, once per element (the nest remembers values it
//! computed at its index: `FuncLowering::element`).
//!
//! The plan runs after `plan::modes`, backwards through the body, so the
//! readers of a value are decided before it. Each element-wise value with a
//! buffer is the root of a nest. A value with a buffer all of whose readers
//! are element-wise and computed at their own index in one nest (or in
//! nests that may merge) becomes fused into that nest; a value that must
//! keep its buffer (a region's result, a value read once) joins its
//! readers' nest as one more root. Nests merge when their roots have one
//! shape and nothing outside reads a root before the merged nest is
//! emitted, at its last root's place in the body.

use std::collections::{HashMap, HashSet};

use strata_ir::{Context, OpId, Value};

use super::materialize::shape_of;
use super::plan::{MAX_FUSED_OPS, Mode, is_elementwise};

/// Most ops one multi-output nest computes per element, as for one fused
/// expression: LLVM's code generation time grows faster than the loop
/// body (a chain of 12,000 additions split into nests of 512 ops took
/// twice as long to compile as into nests of 128).
const MAX_NEST_OPS: usize = MAX_FUSED_OPS;

/// Which ops share a nest, and where it is emitted.
#[derive(Default, Debug)]
pub struct Nests {
    /// The roots of each nest of several roots, in program order, keyed by
    /// the last of them (the nest is emitted where that op is lowered).
    pub roots: HashMap<OpId, Vec<OpId>>,
    /// Roots written by a later root's nest, with the body position of
    /// that root (their reads happen there).
    pub deferred: HashMap<OpId, usize>,
}

/// How the lowering writes one op's results.
pub enum Role<'n> {
    /// By its own pattern.
    Alone,
    /// By the nest of a later root.
    Deferred,
    /// In one nest with the other roots (itself included).
    LastOf(&'n [OpId]),
}

impl Nests {
    pub fn role(&self, op: OpId) -> Role<'_> {
        if self.deferred.contains_key(&op) {
            Role::Deferred
        } else if let Some(roots) = self.roots.get(&op) {
            Role::LastOf(roots)
        } else {
            Role::Alone
        }
    }
}

/// A nest being planned.
struct Nest {
    roots: Vec<OpId>,
    shape: Vec<i64>,
    /// Body position of the last root (where the nest is emitted).
    last: usize,
    ops: usize,
}

struct Planner<'a> {
    ctx: &'a Context,
    uses: &'a HashMap<Value, Vec<OpId>>,
    position: HashMap<OpId, usize>,
    nests: Vec<Nest>,
    /// Union-find parent of each nest (merged nests point to the survivor).
    parent: Vec<usize>,
    /// The nest computing each value at its own index.
    nest_of: HashMap<Value, usize>,
}

impl Planner<'_> {
    fn find(&mut self, mut n: usize) -> usize {
        while self.parent[n] != n {
            self.parent[n] = self.parent[self.parent[n]];
            n = self.parent[n];
        }
        n
    }

    /// The nest computing the result of element-wise reader `u`, if any.
    fn nest_of_reader(&mut self, u: OpId) -> Option<usize> {
        if !is_elementwise(self.ctx.op(u).name) {
            return None;
        }
        let r = *self.ctx.op(u).results.first()?;
        let n = *self.nest_of.get(&r)?;
        Some(self.find(n))
    }

    /// Merges `nests` (distinct roots of the union-find) into one, if
    /// their roots have one shape, no op outside the merged nest reads a
    /// root before the nest runs (its roots are written in program order,
    /// so one may read another at its own index), and the merged nest stays
    /// small. Returns the survivor.
    fn merge(&mut self, nests: &[usize]) -> Option<usize> {
        let first = *nests.first()?;
        let (mut last, mut ops) = (0, 0usize);
        for &n in nests {
            let nest = &self.nests[n];
            if nest.shape != self.nests[first].shape {
                return None;
            }
            last = last.max(nest.last);
            ops = ops.saturating_add(nest.ops);
        }
        if ops >= MAX_NEST_OPS || self.read_outside_before(nests, last) {
            return None;
        }
        for &n in &nests[1..] {
            self.parent[n] = first;
            let roots = std::mem::take(&mut self.nests[n].roots);
            self.nests[first].roots.extend(roots);
        }
        (self.nests[first].last, self.nests[first].ops) = (last, ops);
        Some(first)
    }

    /// Whether an op outside `nests` reads one of their roots at a body
    /// position up to `at`.
    fn read_outside_before(&mut self, nests: &[usize], at: usize) -> bool {
        let roots: Vec<OpId> = nests
            .iter()
            .flat_map(|&n| self.nests[n].roots.iter().copied())
            .collect();
        for &root in &roots {
            let readers = self.uses.get(&self.ctx.op(root).results[0]);
            for &u in readers.map(|u| u.as_slice()).unwrap_or(&[]) {
                let inside = roots.contains(&u)
                    || self.nest_of_reader(u).is_some_and(|n| nests.contains(&n));
                if !inside && self.position.get(&u).is_some_and(|&p| p <= at) {
                    return true;
                }
            }
        }
        false
    }

    /// Starts a nest whose only root is `op`.
    fn new_nest(&mut self, op: OpId, r: Value) -> usize {
        let n = self.nests.len();
        self.nests.push(Nest {
            roots: vec![op],
            shape: shape_of(self.ctx, r),
            last: self.position[&op],
            ops: 1,
        });
        self.parent.push(n);
        self.nest_of.insert(r, n);
        n
    }

    /// The one nest every reader of `r` is computed in at its own index,
    /// merging theirs if needed.
    fn common_nest(&mut self, r: Value) -> Option<usize> {
        let readers = self.uses.get(&r)?.clone();
        let mut nests = Vec::new();
        for u in readers {
            let n = self.nest_of_reader(u)?;
            if !nests.contains(&n) {
                nests.push(n);
            }
        }
        // A 0-d value read by a select or clamp of a larger shape is not
        // computed at the nest's index.
        if self.nests[*nests.first()?].shape != shape_of(self.ctx, r) {
            return None;
        }
        let n = self.merge(&nests)?;
        self.nests[n].ops += 1;
        Some(n)
    }
}

/// Plans multi-output nests over `body`, turning the buffered values they
/// compute into fused ones in `modes`. `tail_reads` (a region's returned
/// values) keep their buffers.
pub fn plan(
    ctx: &Context,
    body: &[OpId],
    uses: &HashMap<Value, Vec<OpId>>,
    tail_reads: &[Value],
    modes: &mut HashMap<Value, Mode>,
) -> Nests {
    let mut p = Planner {
        ctx,
        uses,
        position: body.iter().enumerate().map(|(i, &o)| (o, i)).collect(),
        nests: Vec::new(),
        parent: Vec::new(),
        nest_of: HashMap::new(),
    };
    let tail: HashSet<Value> = tail_reads.iter().copied().collect();
    // A region's element-wise result gets its buffer where it is computed
    // (else it would be computed again for the region's end), so that it
    // can share a nest with the values computed from it.
    for &op in body {
        let node = ctx.op(op);
        if is_elementwise(node.name) && node.results.len() == 1 && tail.contains(&node.results[0]) {
            modes.insert(node.results[0], Mode::Buffer);
        }
    }
    let mut shared = HashSet::new();
    for &op in body.iter().rev() {
        let node = ctx.op(op);
        if !is_elementwise(node.name) || node.results.len() != 1 {
            continue;
        }
        let r = node.results[0];
        let readers = uses.get(&r).map_or(0, |u| u.len());
        match modes.get(&r) {
            Some(Mode::Fused) => {
                if let Some(n) = p.common_nest(r) {
                    p.nest_of.insert(r, n);
                }
            }
            Some(Mode::Buffer) => {
                if readers >= 2
                    && !tail.contains(&r)
                    && let Some(n) = p.common_nest(r)
                {
                    p.nest_of.insert(r, n);
                    modes.insert(r, Mode::Fused);
                    shared.insert(r);
                } else {
                    // Written by the nest that reads it, when one does:
                    // Adam's new moments beside the parameter they update.
                    let own = p.new_nest(op, r);
                    if let Some(n) = p.common_nest(r) {
                        p.merge(&[n, own]);
                    }
                }
            }
            None => {}
        }
    }
    // A shared value that keeps its buffer after all is written by its
    // nest, beside the roots (whose nest may read it).
    for v in bound_depth(ctx, body, modes, &shared) {
        if let (Some(&n), Some(op)) = (p.nest_of.get(&v), ctx.defining_op(v)) {
            let n = p.find(n);
            p.nests[n].roots.push(op);
        }
    }
    collect(&mut p, modes)
}

/// A value computed per element recurses through its fused operands while
/// it is emitted: shared values deeper than `MAX_FUSED_OPS` keep their
/// buffers (a chain of thousands would overflow the stack). Returns them.
fn bound_depth(
    ctx: &Context,
    body: &[OpId],
    modes: &mut HashMap<Value, Mode>,
    shared: &HashSet<Value>,
) -> Vec<Value> {
    let mut kept = Vec::new();
    let mut depth: HashMap<Value, usize> = HashMap::new();
    for &op in body {
        let node = ctx.op(op);
        let d = 1 + node
            .operands()
            .iter()
            .filter_map(|v| depth.get(v))
            .max()
            .copied()
            .unwrap_or(0);
        for &r in &node.results {
            if modes.get(&r) != Some(&Mode::Fused) {
                continue;
            }
            if shared.contains(&r) && d > MAX_FUSED_OPS {
                modes.insert(r, Mode::Buffer);
                kept.push(r);
            } else {
                depth.insert(r, d);
            }
        }
    }
    kept
}

/// The nests of several roots whose roots all kept their buffers.
fn collect(p: &mut Planner<'_>, modes: &HashMap<Value, Mode>) -> Nests {
    let mut out = Nests::default();
    for n in 0..p.nests.len() {
        if p.parent[n] != n || p.nests[n].roots.len() < 2 {
            continue;
        }
        let mut roots: Vec<OpId> = p.nests[n]
            .roots
            .iter()
            .copied()
            .filter(|&o| modes.get(&p.ctx.op(o).results[0]) == Some(&Mode::Buffer))
            .collect();
        if roots.len() < 2 {
            continue;
        }
        roots.sort_by_key(|o| p.position[o]);
        let Some(&last) = roots.last() else { continue };
        let at = p.position[&last];
        for &o in &roots[..roots.len() - 1] {
            out.deferred.insert(o, at);
        }
        out.roots.insert(last, roots);
    }
    out
}
