//! Broadcasting rules: XLA's explicit `broadcast_dimensions` with
//! degenerate-dimension broadcasting, and the client-level implicit modes
//! (numpy, PDPD, bidirectional). Each rule gives the result shape and, for
//! each operand, the `broadcast_in_dim` dimensions that place it in the
//! result.

/// A resolved broadcast: result shape and per-operand dimension maps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broadcast {
    pub shape: Vec<i64>,
    pub lhs_dims: Vec<i64>,
    pub rhs_dims: Vec<i64>,
}

pub fn shape_str(s: &[i64]) -> String {
    let d: Vec<String> = s.iter().map(|x| x.to_string()).collect();
    format!("({})", d.join(","))
}

/// Per-dimension degenerate broadcasting of two equal-rank shapes.
fn degenerate(a: &[i64], b: &[i64]) -> Result<Vec<i64>, usize> {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (&x, &y))| {
            if x == y || y == 1 {
                Ok(x)
            } else if x == 1 {
                Ok(y)
            } else {
                Err(i)
            }
        })
        .collect()
}

/// XLA's rules. With `dims`, the lower-rank operand's dimension i matches
/// dimension `dims[i]` of the higher-rank one (rank extension), then size-1
/// dimensions broadcast on either side. Without `dims`, ranks must be equal
/// (or one operand a scalar).
pub fn xla(lhs: &[i64], rhs: &[i64], dims: Option<&[i64]>) -> Result<Broadcast, String> {
    let both = format!("{} and {}", shape_str(lhs), shape_str(rhs));
    let lhs_low = lhs.len() < rhs.len();
    let (low, high) = if lhs_low { (lhs, rhs) } else { (rhs, lhs) };
    let dims_given = dims.is_some();
    let dims: Vec<i64> = match dims {
        Some(d) => d.to_vec(),
        None if low.is_empty() => vec![],
        None if low.len() == high.len() => (0..high.len() as i64).collect(),
        None => {
            return Err(format!(
                "operands of shapes {both} have different ranks and need broadcast_dimensions (or an auto_broadcast mode)"
            ));
        }
    };
    if dims.len() != low.len() {
        return Err(format!(
            "broadcast_dimensions {} must have one entry per dimension of the lower-rank operand {} (shapes {both})",
            shape_str(&dims),
            shape_str(low)
        ));
    }
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= high.len() {
            return Err(format!(
                "broadcast_dimensions entry {d} is out of range for rank {} (shapes {both})",
                high.len()
            ));
        }
        if i > 0 && dims[i - 1] >= d {
            return Err(format!(
                "broadcast_dimensions {} must be strictly increasing (shapes {both})",
                shape_str(&dims)
            ));
        }
    }
    let mut extended = vec![1; high.len()];
    for (i, &d) in dims.iter().enumerate() {
        extended[d as usize] = low[i];
    }
    let explicit = dims_given;
    let shape = degenerate(&extended, high).map_err(|d| {
        let (l, r) = if lhs_low {
            (extended[d], high[d])
        } else {
            (high[d], extended[d])
        };
        let how = if explicit {
            format!(" with broadcast_dimensions {}", shape_str(&dims))
        } else {
            String::new()
        };
        format!(
            "cannot broadcast shapes {both}{how}: sizes {l} and {r} differ in result dimension {d}"
        )
    })?;
    let identity: Vec<i64> = (0..high.len() as i64).collect();
    let (lhs_dims, rhs_dims) = if lhs_low {
        (dims, identity)
    } else {
        (identity, dims)
    };
    Ok(Broadcast {
        shape,
        lhs_dims,
        rhs_dims,
    })
}

/// numpy: align on the right, size-1 dimensions stretch.
pub fn numpy(lhs: &[i64], rhs: &[i64]) -> Result<Broadcast, String> {
    let rank = lhs.len().max(rhs.len());
    let pad = |s: &[i64]| {
        let mut v = vec![1; rank - s.len()];
        v.extend_from_slice(s);
        v
    };
    let (a, b) = (pad(lhs), pad(rhs));
    let shape = degenerate(&a, &b).map_err(|d| {
        format!(
            "numpy broadcasting of shapes {} and {} fails: sizes {} and {} differ in aligned dimension {d}",
            shape_str(lhs),
            shape_str(rhs),
            a[d],
            b[d]
        )
    })?;
    let dims = |s: &[i64]| ((rank - s.len()) as i64..rank as i64).collect();
    Ok(Broadcast {
        shape,
        lhs_dims: dims(lhs),
        rhs_dims: dims(rhs),
    })
}

/// PDPD: only `b` broadcasts onto `a`, starting at `axis` (-1: aligned to
/// the right); `b`'s trailing size-1 dimensions are ignored.
pub fn pdpd(a: &[i64], b: &[i64], axis: i64) -> Result<Broadcast, String> {
    let both = format!("{} and {}", shape_str(a), shape_str(b));
    if axis < -1 {
        return Err(format!(
            "PDPD broadcast axis {axis} is invalid: only -1 or a non-negative axis is allowed (shapes {both})"
        ));
    }
    let axis = if axis == -1 {
        a.len() as i64 - b.len() as i64
    } else {
        axis
    };
    let mut kept = b.len();
    while kept > 0 && b[kept - 1] == 1 && (axis < 0 || axis as usize + kept > a.len()) {
        kept -= 1;
    }
    if axis < 0 || axis as usize + kept > a.len() {
        return Err(format!(
            "PDPD broadcasting cannot place B onto A at axis {axis}: B must broadcast to A (shapes {both})"
        ));
    }
    let axis = axis as usize;
    for i in 0..kept {
        if b[i] != 1 && b[i] != a[axis + i] {
            return Err(format!(
                "PDPD broadcasting requires B to broadcast to A: size {} of B dimension {i} does not match size {} of A dimension {} (shapes {both})",
                b[i],
                a[axis + i],
                axis + i
            ));
        }
    }
    // B's ignored trailing size-1 dimensions are reshaped away by the
    // legalization; the kept ones map to A's dimensions from `axis` on.
    let rhs_dims = (axis..axis + kept).map(|d| d as i64).collect();
    Ok(Broadcast {
        shape: a.to_vec(),
        lhs_dims: (0..a.len() as i64).collect(),
        rhs_dims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xla_examples() {
        assert_eq!(xla(&[4], &[1, 2], Some(&[0])).unwrap().shape, vec![4, 2]);
        assert_eq!(
            xla(&[1, 2], &[4, 3, 1], Some(&[1, 2])).unwrap().shape,
            vec![4, 3, 2]
        );
        assert_eq!(xla(&[2, 1], &[1, 3], None).unwrap().shape, vec![2, 3]);
        assert!(xla(&[2, 3], &[3], Some(&[0])).is_err());
        assert!(xla(&[7, 2, 5], &[7, 2, 6], None).is_err());
        assert_eq!(xla(&[2, 3], &[3], Some(&[1])).unwrap().rhs_dims, vec![1]);
    }

    #[test]
    fn numpy_and_pdpd() {
        assert_eq!(
            numpy(&[8, 1, 6, 1], &[7, 1, 5]).unwrap().shape,
            vec![8, 7, 6, 5]
        );
        assert!(numpy(&[3, 1, 5], &[4, 4, 5]).is_err());
        assert_eq!(
            pdpd(&[2, 3, 4, 5], &[3, 4], 1).unwrap().shape,
            vec![2, 3, 4, 5]
        );
        assert_eq!(
            pdpd(&[2, 3, 4, 5], &[4, 5], -1).unwrap().rhs_dims,
            vec![2, 3]
        );
        assert_eq!(pdpd(&[2, 3], &[3, 1], 1).unwrap().rhs_dims, vec![1]);
        assert!(pdpd(&[2, 3, 4, 5], &[3, 4], -2).is_err());
        assert!(pdpd(&[3, 4], &[2, 3, 4], -1).is_err());
    }
}
