//! Collectives between device threads, and their failures.

use super::devices::run_devices;
use super::timeout::timeout_from;
use super::*;

fn desc(mode: CollectiveMode, groups: &[&[i64]]) -> CollectiveDesc {
    let mut d = CollectiveDesc {
        mode: mode as i64,
        group_count: groups.len() as i64,
        group_size: groups.first().map_or(0, |g| g.len() as i64),
        ..CollectiveDesc::default()
    };
    for (i, id) in groups.iter().flat_map(|g| g.iter()).enumerate() {
        d.ids[i] = *id;
    }
    d
}

#[test]
fn groups_follow_the_spec_examples() {
    let g = process_groups(
        &desc(CollectiveMode::CrossReplica, &[&[0, 1], &[2, 3]]),
        4,
        2,
    );
    // (r, p) as r * 2 + p: [[(0,0),(1,0)], [(0,1),(1,1)], [(2,0),(3,0)], [(2,1),(3,1)]]
    assert_eq!(
        g.unwrap(),
        vec![vec![0, 2], vec![1, 3], vec![4, 6], vec![5, 7]]
    );
    let g = process_groups(&desc(CollectiveMode::CrossPartition, &[&[0, 1]]), 4, 2);
    assert_eq!(
        g.unwrap(),
        vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]
    );
    let g = process_groups(
        &desc(
            CollectiveMode::CrossReplicaAndPartition,
            &[&[0, 1], &[2, 3]],
        ),
        4,
        2,
    );
    assert_eq!(g.unwrap(), vec![vec![0, 2, 1, 3], vec![4, 6, 5, 7]]);
    let g = process_groups(&desc(CollectiveMode::FlattenedIds, &[&[0, 1, 2, 3]]), 2, 2);
    assert_eq!(g.unwrap(), vec![vec![0, 1, 2, 3]]);
    let bad = process_groups(&desc(CollectiveMode::CrossReplica, &[&[0, 5]]), 2, 1);
    assert!(bad.unwrap_err().contains("names id 5"));
}

/// Four devices sum their device numbers through the protocol.
#[test]
fn devices_meet_and_fetch_each_others_operands() {
    let _turn = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let d = desc(CollectiveMode::CrossReplica, &[&[0, 1, 2, 3]]);
    let sums = Mutex::new(vec![0i64; 4]);
    let status = run_devices(4, 1, false, &|device| {
        let mine = [device as i64 * 10];
        let mut info = [0i64; 2];
        let mut total = 0;
        unsafe {
            assert_eq!(strata_rt_collective_begin(&d), 0);
            assert_eq!(
                strata_rt_collective_add(mine.as_ptr() as *const c_void, 8),
                0
            );
            assert_eq!(strata_rt_collective_meet(info.as_mut_ptr()), 0);
            assert_eq!(info, [device as i64, 4]);
            for m in 0..4 {
                let mut v = [0i64];
                assert_eq!(
                    strata_rt_collective_fetch(m, 0, v.as_mut_ptr() as *mut c_void, 8),
                    0
                );
                total += v[0];
            }
        }
        assert_eq!(strata_rt_collective_leave(), 0);
        lock(&sums)[device] = total;
        0
    });
    assert_eq!(status, 0);
    assert_eq!(*lock(&sums), vec![60; 4]);
}

/// Tests that set `STRATA_COLLECTIVE_TIMEOUT_MS` or start runs (which
/// read it) take turns.
static ENV: Mutex<()> = Mutex::new(());

fn with_timeout_env<R>(value: Option<&str>, f: impl FnOnce() -> R) -> R {
    let _turn = ENV.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: every test of this module that reads the variable holds
    // ENV; no other module reads it.
    unsafe {
        match value {
            Some(v) => std::env::set_var("STRATA_COLLECTIVE_TIMEOUT_MS", v),
            None => std::env::remove_var("STRATA_COLLECTIVE_TIMEOUT_MS"),
        }
    }
    let r = f();
    unsafe { std::env::remove_var("STRATA_COLLECTIVE_TIMEOUT_MS") };
    r
}

/// Device 0 waits at a collective of devices 0 and 1; device 1 returns
/// at once, or (late) arrives well after device 0 gave up. Returns the
/// run's status and error and device 1's own error.
fn run_with_missing_device(late: bool) -> (c_int, String, String) {
    let d = desc(CollectiveMode::CrossReplica, &[&[0, 1]]);
    let second = Mutex::new(String::new());
    let status = run_devices(2, 1, false, &|device| {
        if device == 1 && !late {
            return 0; // never arrives
        }
        if device == 1 {
            std::thread::sleep(Duration::from_millis(600));
        }
        let mine = [1i64];
        let mut info = [0i64; 2];
        let status = unsafe {
            strata_rt_collective_begin(&d);
            strata_rt_collective_add(mine.as_ptr() as *const c_void, 8);
            strata_rt_collective_meet(info.as_mut_ptr())
        };
        if device == 1 {
            *lock(&second) = last_error();
        }
        status
    });
    let second = lock(&second).clone();
    (status, last_error(), second)
}

#[test]
fn a_missing_device_times_out_with_a_message() {
    let (status, msg, _) = with_timeout_env(Some("200"), || run_with_missing_device(false));
    assert_ne!(status, 0);
    assert!(
        msg.contains("device 0: collective #1 timed out after 200 ms: device(s) [1] of group [0, 1] did not arrive"),
        "{msg}"
    );
}

/// A device that arrives after the others gave up names the devices
/// they waited for (it used to say `device(s) []`).
#[test]
fn a_late_device_names_the_devices_the_others_gave_up_on() {
    let (status, first, late) = with_timeout_env(Some("200"), || run_with_missing_device(true));
    assert_ne!(status, 0);
    assert!(
        first.contains("device(s) [1] of group [0, 1] did not arrive"),
        "{first}"
    );
    assert!(
        late.contains("collective #1 timed out: device(s) [1] of group [0, 1] did not arrive within 200 ms, and this device arrived after the others had given up"),
        "{late}"
    );
}

#[test]
fn timeouts_must_be_positive_whole_milliseconds() {
    use std::ffi::OsStr;
    let ms = |v: &str| timeout_from(Some(OsStr::new(v)));
    assert_eq!(
        timeout_from(None),
        Ok(Duration::from_millis(DEFAULT_TIMEOUT_MS))
    );
    assert_eq!(ms("2000"), Ok(Duration::from_millis(2000)));
    assert_eq!(ms(" 15 "), Ok(Duration::from_millis(15)));
    assert_eq!(
        ms("99999999999999999999999"),
        Ok(Duration::from_millis(u64::MAX))
    );
    for bad in ["0", "-1", "abc", "", "1.5", "+5", "10ms"] {
        let err = ms(bad).unwrap_err();
        assert!(
            err.contains(&format!("STRATA_COLLECTIVE_TIMEOUT_MS={bad:?} is not a positive whole number of milliseconds")),
            "{err}"
        );
    }
    // The deadline of a huge timeout does not overflow the clock.
    assert!(deadline_after(Duration::from_millis(u64::MAX)) > Instant::now());
}

/// A run refuses a bad timeout up front (it used to mean the default).
#[test]
fn runs_refuse_a_bad_timeout() {
    for bad in ["0", "-1", "abc"] {
        let ran = std::sync::atomic::AtomicBool::new(false);
        let status = with_timeout_env(Some(bad), || {
            run_devices(2, 1, false, &|_| {
                ran.store(true, std::sync::atomic::Ordering::Relaxed);
                0
            })
        });
        assert_eq!(status, 1, "{bad}");
        assert!(!ran.load(std::sync::atomic::Ordering::Relaxed), "{bad}");
        let msg = last_error();
        assert!(
            msg.contains(&format!("STRATA_COLLECTIVE_TIMEOUT_MS={bad:?}")),
            "{msg}"
        );
    }
}

unsafe extern "C" fn count_device(_device: i32, user: *mut c_void) {
    // SAFETY: the test passes an AtomicUsize.
    let n = unsafe { &*(user as *const std::sync::atomic::AtomicUsize) };
    n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Device counts above MAX_DEVICES fail with a message instead of
/// starting threads until the host aborts.
#[test]
fn device_counts_are_capped() {
    let _turn = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let n = std::sync::atomic::AtomicUsize::new(0);
    let user = &n as *const _ as *mut c_void;
    for count in [i32::MAX, MAX_DEVICES as i32 + 1] {
        let status = unsafe { strata_rt_replicas_run(count, Some(count_device), user, 0) };
        assert_eq!(status, 1);
        let msg = last_error();
        assert!(
            msg.contains(&format!(
                "P_replicas_run: n = {count} exceeds the 4096 devices"
            )),
            "{msg}"
        );
    }
    assert_eq!(n.load(std::sync::atomic::Ordering::Relaxed), 0);
    // replicas x partitions past usize, and past the cap.
    for (r, p) in [(i64::MAX, 4), (4097, 1), (64, 65)] {
        let status = unsafe { strata_rt_run_devices(device_task, user, r, p) };
        assert_eq!(status, 1);
        let msg = last_error();
        assert!(
            msg.contains("exceeds the 4096 devices a process runs"),
            "{msg}"
        );
    }
    let status = unsafe { strata_rt_replicas_run(3, Some(count_device), user, 0) };
    assert_eq!(status, 0, "{}", last_error());
    assert_eq!(n.load(std::sync::atomic::Ordering::Relaxed), 3);
}

unsafe extern "C" fn device_task(_ctx: *mut c_void, _begin: i64, _end: i64) -> i32 {
    0
}
