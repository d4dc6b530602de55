//! The layout of a function compiled for every size of one dimension
//! variable `b` (`strata compile` of a shape-polymorphic export without
//! `--dim`): the sizes compiled, and for each buffer how its rows along `b`
//! sit in memory. Generated code stores it as `i64` words
//! ([`BatchedCall::words`]); `strata_rt_batched_call` reads it back
//! ([`BatchedCall::from_words`]) and runs a call of any `b` as chunks.

/// How one buffer (argument or result) holds the rows along `b`: `outer`
/// blocks, each of `b` rows of `row_bytes` bytes (an unbatched buffer:
/// one block of one row, its whole size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchedBuffer {
    pub outer: i64,
    pub row_bytes: i64,
    pub batched: bool,
    pub is_result: bool,
}

/// A function compiled for `sizes` (ascending) of `b`, each no less than
/// `min_batch`, the least `b` its shape assertions allow, and what its
/// chunks cost (the compiler's estimate), which decides whether a
/// remainder of rows runs padded in one larger chunk or as several
/// smaller ones ([`chunks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchedCall {
    pub min_batch: i64,
    pub costs: ChunkCosts,
    pub sizes: Vec<i64>,
    pub buffers: Vec<BatchedBuffer>,
}

/// What a chunk costs besides its rows' own work, in 1024ths of a row's
/// work: `call` once per call (reading the weights, the call's overhead),
/// `copy` per row copied into and out of a padded chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChunkCosts {
    pub call: i64,
    pub copy: i64,
}

/// More is refused by [`BatchedCall::from_words`].
pub const MAX_BATCHED_BUFFERS: usize = 1 << 20;
/// The most sizes a layout holds.
pub const MAX_SIZES: usize = 64;
/// The largest cost a layout holds, in 1024ths of a row (beyond it every
/// plan is decided alike).
pub const MAX_COST: i64 = 1 << 40;
/// Words before the sizes: `min_batch`, the two costs, the counts of
/// sizes and of buffers.
pub const HEAD: usize = 5;

/// A [`BatchedCall`] read in place from its words (no allocation: the
/// runtime reads one per call).
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    pub min_batch: i64,
    pub costs: ChunkCosts,
    pub sizes: &'a [i64],
    buffers: &'a [i64],
}

impl<'a> Layout<'a> {
    /// The words' length a layout announces in its first [`HEAD`] words.
    pub fn announced_len(head: [i64; HEAD]) -> Option<usize> {
        let sizes = usize::try_from(head[3])
            .ok()
            .filter(|&n| (1..=MAX_SIZES).contains(&n))?;
        let buffers = usize::try_from(head[4])
            .ok()
            .filter(|&n| n <= MAX_BATCHED_BUFFERS)?;
        Some(HEAD + sizes + 4 * buffers)
    }

    /// The layout `w` holds, or None for words [`BatchedCall::words`]
    /// cannot have written (counts out of range, sizes not ascending or
    /// below `min_batch`, negative extents).
    pub fn parse(w: &'a [i64]) -> Option<Layout<'a>> {
        let head: [i64; HEAD] = w.get(..HEAD)?.try_into().ok()?;
        if w.len() != Self::announced_len(head)? {
            return None;
        }
        let n_sizes = head[3] as usize;
        let min_batch = head[0];
        let costs = ChunkCosts {
            call: head[1],
            copy: head[2],
        };
        let (sizes, buffers) = (&w[HEAD..HEAD + n_sizes], &w[HEAD + n_sizes..]);
        let ascending = sizes.windows(2).all(|p| p[0] < p[1]);
        let extents = buffers.chunks_exact(4).all(|c| c[0] >= 0 && c[1] >= 0);
        let valid = min_batch >= 0
            && (0..=MAX_COST).contains(&costs.call)
            && (0..=MAX_COST).contains(&costs.copy)
            && ascending
            && sizes[0] >= min_batch.max(1)
            && extents;
        valid.then_some(Layout {
            min_batch,
            costs,
            sizes,
            buffers,
        })
    }

    pub fn len(&self) -> usize {
        self.buffers.len() / 4
    }

    pub fn is_empty(&self) -> bool {
        self.buffers.is_empty()
    }

    /// Buffer `i` (`i < len()`).
    pub fn buffer(&self, i: usize) -> BatchedBuffer {
        let c = &self.buffers[4 * i..4 * i + 4];
        BatchedBuffer {
            outer: c[0],
            row_bytes: c[1],
            batched: c[2] != 0,
            is_result: c[3] != 0,
        }
    }

    pub fn buffers(&self) -> impl Iterator<Item = BatchedBuffer> + '_ {
        (0..self.len()).map(|i| self.buffer(i))
    }
}

impl BatchedCall {
    /// `[min_batch, call cost, copy cost, sizes, buffers, sizes...,
    /// (outer, row_bytes, batched, is_result)...]`.
    pub fn words(&self) -> Vec<i64> {
        let mut w = vec![
            self.min_batch,
            self.costs.call,
            self.costs.copy,
            self.sizes.len() as i64,
            self.buffers.len() as i64,
        ];
        w.extend(&self.sizes);
        for b in &self.buffers {
            w.extend([
                b.outer,
                b.row_bytes,
                i64::from(b.batched),
                i64::from(b.is_result),
            ]);
        }
        w
    }

    /// The layout [`words`](Self::words) wrote, or None for words it cannot
    /// have written (counts out of range, sizes not ascending or below
    /// `min_batch`, negative extents).
    pub fn from_words(w: &[i64]) -> Option<BatchedCall> {
        let l = Layout::parse(w)?;
        Some(BatchedCall {
            min_batch: l.min_batch,
            costs: l.costs,
            sizes: l.sizes.to_vec(),
            buffers: l.buffers().collect(),
        })
    }
}

/// The chunks a call of size `b` runs as: `(first row, rows, size)`, the
/// size one of `sizes` (ascending) and `rows <= size` (the rest of the
/// chunk is padding). A chunk of size `s` costs `s` rows of work plus
/// `costs` (per call, and per row copied when it is padded); the plan
/// costs least: runs of the largest size while more than twice it remain,
/// then the cheapest way to cover the rest (a weight-bound model pads 13
/// rows to 16 in one call, a compute-bound one runs 8 + 5; of plans
/// costing the same, the one with fewer calls). `b = 0` runs the least
/// size on padding alone (for the results that do not depend on `b`).
pub fn chunks(b: i64, sizes: &[i64], costs: ChunkCosts) -> Chunks<'_> {
    Chunks {
        b,
        start: 0,
        sizes,
        costs,
        firsts: None,
        done: false,
    }
}

/// The iterator of [`chunks`]: the cheapest plan's table is computed once,
/// when the remainder first fits it, and read for every chunk after.
pub struct Chunks<'a> {
    b: i64,
    start: i64,
    sizes: &'a [i64],
    costs: ChunkCosts,
    firsts: Option<[i64; PLAN_TABLE]>,
    done: bool,
}

impl Iterator for Chunks<'_> {
    type Item = (i64, i64, i64);

    fn next(&mut self) -> Option<(i64, i64, i64)> {
        let (&least, &largest) = self.sizes.first().zip(self.sizes.last())?;
        if self.done {
            return None;
        }
        if self.b <= 0 {
            self.done = true;
            return Some((0, 0, least));
        }
        let rest = self.b - self.start;
        if rest <= 0 {
            return None;
        }
        let planned =
            rest <= 2 * largest && self.sizes.len() <= MAX_SIZES && largest <= MAX_PLANNED;
        let size = if planned {
            let (sizes, costs) = (self.sizes, self.costs);
            let firsts = self
                .firsts
                .get_or_insert_with(|| cheapest_plan(rest as usize, sizes, costs));
            firsts[rest as usize]
        } else {
            largest
        };
        let chunk = (self.start, rest.min(size), size);
        self.start += chunk.1;
        Some(chunk)
    }
}

/// Remainders up to twice the largest size are planned exactly when the
/// largest is at most this.
const MAX_PLANNED: i64 = 256;
const PLAN_TABLE: usize = 2 * MAX_PLANNED as usize + 1;

/// For every remainder `m <= n`, the first chunk's size of the cheapest
/// cover of `m` rows by chunks of `sizes` (and a little more per call, so
/// that equal plans prefer fewer calls): the rest of that plan is the
/// cheapest cover of what remains, read from the same table.
fn cheapest_plan(n: usize, sizes: &[i64], costs: ChunkCosts) -> [i64; PLAN_TABLE] {
    let (call, copy) = (costs.call.clamp(0, MAX_COST), costs.copy.clamp(0, MAX_COST));
    let mut cost = [0i64; PLAN_TABLE];
    let mut first = [0i64; PLAN_TABLE];
    for m in 1..=n.min(PLAN_TABLE - 1) {
        let mut best = i64::MAX;
        // Larger sizes first: of equal plans, the larger chunk leads.
        for &s in sizes.iter().rev() {
            let covered = (s as usize).min(m);
            let padded = if s as usize > m { m as i64 * copy } else { 0 };
            let c = call + s * 1024 + padded + 1 + cost[m - covered];
            if c < best {
                (best, first[m]) = (c, s);
            }
        }
        cost[m] = best;
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: &[i64] = &[1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64];

    #[test]
    fn words_round_trip() {
        let call = BatchedCall {
            min_batch: 1,
            costs: ChunkCosts {
                call: 3 << 10,
                copy: 1 << 9,
            },
            sizes: SIZES.to_vec(),
            buffers: vec![
                BatchedBuffer {
                    outer: 1,
                    row_bytes: 3136,
                    batched: true,
                    is_result: false,
                },
                BatchedBuffer {
                    outer: 1,
                    row_bytes: 40,
                    batched: false,
                    is_result: true,
                },
            ],
        };
        assert_eq!(BatchedCall::from_words(&call.words()), Some(call.clone()));
        assert_eq!(BatchedCall::from_words(&[1, 2]), None);
        assert_eq!(BatchedCall::from_words(&[1, 0, 0, 2, 0, 4, 2]), None);
        for costly in [1, 2] {
            let mut negative = call.words();
            negative[costly] = -1;
            assert_eq!(BatchedCall::from_words(&negative), None);
        }
    }

    fn plan(b: i64, sizes: &[i64], costs: ChunkCosts) -> Vec<(i64, i64, i64)> {
        chunks(b, sizes, costs).collect()
    }

    /// Costs of `call` rows per call and `copy` rows per copied row.
    fn costs(call: i64, copy: f64) -> ChunkCosts {
        ChunkCosts {
            call: call << 10,
            copy: (copy * 1024.0) as i64,
        }
    }

    #[test]
    fn chunks_cover_every_row_once() {
        for (call, copy) in [(0, 0.0), (2, 0.0), (20, 0.05), (1000, 2.0), (3, 2.0)] {
            for b in 1..300 {
                let c = plan(b, SIZES, costs(call, copy));
                let mut next = 0;
                for &(start, rows, size) in &c {
                    assert_eq!(start, next);
                    assert!(rows >= 1 && rows <= size && SIZES.contains(&size));
                    next += rows;
                }
                assert_eq!(next, b);
            }
        }
        // Compute-bound (a call costs two rows more than its rows).
        let compute = costs(2, 0.0);
        assert_eq!(plan(7, SIZES, compute), vec![(0, 7, 7)]);
        assert_eq!(plan(64, SIZES, compute), vec![(0, 64, 64)]);
        assert_eq!(plan(15, SIZES, compute), vec![(0, 15, 16)]);
        assert_eq!(plan(12, SIZES, compute), vec![(0, 8, 8), (8, 4, 4)]);
        assert_eq!(plan(13, SIZES, costs(0, 0.0)), vec![(0, 8, 8), (8, 5, 5)]);
        assert_eq!(
            plan(130, SIZES, compute),
            vec![(0, 64, 64), (64, 64, 64), (128, 2, 2)]
        );
        // Weight-bound (a call costs 20 rows): one padded call.
        let weights = costs(20, 0.05);
        assert_eq!(plan(13, SIZES, weights), vec![(0, 13, 16)]);
        assert_eq!(plan(40, SIZES, weights), vec![(0, 32, 32), (32, 8, 8)]);
        assert_eq!(plan(60, SIZES, weights), vec![(0, 60, 64)]);
        // Rows that cost more to copy than to compute (a decode step's
        // caches) are not padded for a few calls' sake.
        assert_eq!(plan(13, SIZES, costs(3, 2.0)), vec![(0, 8, 8), (8, 5, 5)]);
        assert_eq!(plan(0, SIZES, compute), vec![(0, 0, 1)]);
        assert_eq!(plan(3, &[16, 32], compute), vec![(0, 3, 16)]);
    }
}
