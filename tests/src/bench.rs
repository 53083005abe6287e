//! What the workspace's criterion benches share: how they tell a measuring run from a smoke test,
//! where criterion wrote its estimates, and the table of ratios they print after criterion's own
//! report (`tests/benches/decode.rs`, `bench/benches/generate.rs`).
//!
//! The ratios come from the median estimates criterion wrote in this run
//! (`<criterion home>/<group>/<function>/new/estimates.json`): every ratio compares two functions
//! measured in the same process, seconds apart, which is the only comparison a shared machine
//! allows.

use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use serde::Deserialize;

/// A criterion runner as the workspace's benches use it: no plots (the ratio table is the
/// report), this many samples, warm-up and measurement time per function, then the command
/// line's settings on top (`--test`, a filter, `--sample-size`, ...).
pub fn criterion(samples: usize, warm_up: Duration, measurement: Duration) -> criterion::Criterion {
    criterion::Criterion::default()
        .without_plots()
        .sample_size(samples)
        .warm_up_time(warm_up)
        .measurement_time(measurement)
        .configure_from_args()
}

/// What criterion was asked to do, read from the arguments the way criterion reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A measuring run (`cargo bench`): estimates are written, ratios can be printed.
    Benchmark,
    /// `--test`, or run by `cargo test --benches` (no `--bench`): each function once.
    Test,
    /// `--list` or `--profile-time`: no estimates, and `--list` output must stay clean.
    Other,
}

/// The [`Mode`] of this process, from its arguments.
pub fn mode() -> Mode {
    mode_of(&env::args_os().skip(1).collect::<Vec<_>>())
}

/// The [`Mode`] for these arguments (the program name left out).
///
/// ```
/// use a2a_tests::bench::{mode_of, Mode};
///
/// assert_eq!(mode_of(&["--bench".into()]), Mode::Benchmark);
/// assert_eq!(mode_of(&["--bench".into(), "--test".into()]), Mode::Test);
/// assert_eq!(mode_of(&[]), Mode::Test); // `cargo test --benches`
/// assert_eq!(mode_of(&["--bench".into(), "--list".into()]), Mode::Other);
/// ```
pub fn mode_of(args: &[OsString]) -> Mode {
    let has = |flag: &str| args.iter().any(|arg| arg == flag);
    let has_prefix = |flag: &str| {
        args.iter()
            .any(|arg| arg.to_str().is_some_and(|arg| arg.starts_with(flag)))
    };
    if has("--list") {
        Mode::Other
    } else if has("--test") || !has("--bench") {
        Mode::Test
    } else if has_prefix("--profile-time") {
        Mode::Other
    } else {
        Mode::Benchmark
    }
}

/// Whether criterion runs under cargo-criterion, which analyses after this process has ended (so
/// there are no estimates to read yet).
pub fn under_cargo_criterion() -> bool {
    env::var_os("CARGO_CRITERION_PORT").is_some()
}

/// Whether this run measured anything to print ratios from: `true` for a measuring run;
/// otherwise it prints why there are none (`--test`, with `test_note` appended; cargo-criterion)
/// and returns `false`. Under `--list` it prints nothing, to keep the list clean.
pub fn ratios_wanted(mode: Mode, test_note: &str) -> bool {
    match mode {
        Mode::Other => false,
        Mode::Test => {
            println!("ratios: not measured in --test mode{test_note}");
            false
        }
        Mode::Benchmark if under_cargo_criterion() => {
            println!("ratios: not printed under cargo-criterion (it analyses after this process)");
            false
        }
        Mode::Benchmark => true,
    }
}

/// The cargo target directory of the workspace: `$CARGO_TARGET_DIR`, else the one
/// `cargo metadata` names (benches run with `$CARGO` set), else `<workspace>/target`.
pub fn target_dir() -> PathBuf {
    if let Some(target) = env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target);
    }
    #[derive(Deserialize)]
    struct Metadata {
        target_directory: PathBuf,
    }
    env::var_os("CARGO")
        .and_then(|cargo| {
            Command::new(cargo)
                .args(["metadata", "--format-version", "1", "--no-deps"])
                .current_dir(crate::workspace_root())
                .output()
                .ok()
        })
        .and_then(|output| serde_json::from_slice::<Metadata>(&output.stdout).ok())
        .map_or_else(
            || crate::workspace_root().join("target"),
            |metadata| metadata.target_directory,
        )
}

/// Where criterion writes its results, by criterion's own rule (criterion 0.7,
/// `default_output_directory`): `$CRITERION_HOME`, else `<target dir>/criterion`.
pub fn criterion_home() -> PathBuf {
    match env::var_os("CRITERION_HOME") {
        Some(home) => PathBuf::from(home),
        None => target_dir().join("criterion"),
    }
}

#[derive(Deserialize)]
struct Estimates {
    median: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
}

/// The median time (ns) criterion estimated for `group/function` in this run; `None` when the
/// function was not measured since `since` (filtered out, or only an older file is there).
pub fn median_ns(home: &Path, group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = home
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let fresh = std::fs::metadata(&path)
        .and_then(|meta| meta.modified())
        .is_ok_and(|modified| modified >= since);
    if !fresh {
        return None;
    }
    let text = std::fs::read(&path).ok()?;
    let estimates: Estimates = serde_json::from_slice(&text).ok()?;
    Some(estimates.median.point_estimate).filter(|ns| ns.is_finite() && *ns > 0.0)
}

/// A duration in ns, in the unit that suits it (`812 ns`, `6.70 µs`, `2.31 ms`, `1.20 s`).
///
/// ```
/// assert_eq!(a2a_tests::bench::format_ns(6_700.0), "6.70 µs");
/// assert_eq!(a2a_tests::bench::format_ns(1.2e9), "1.20 s");
/// ```
pub fn format_ns(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// One line of a ratio table: a criterion group, the function of ours in it, and the baselines
/// to compare it with as `(function, label)`.
pub struct Case<'a> {
    /// How the line is headed.
    pub label: &'a str,
    /// The criterion group.
    pub group: &'a str,
    /// The function that times our side.
    pub ours: &'a str,
    /// The functions that time the baselines, each with its label.
    pub baselines: &'a [(&'a str, &'a str)],
}

/// Prints one line per case: `label  <ratio>x vs <baseline>, ...  [medians: ...]`, each ratio being
/// the baseline's median time divided by ours (so above 1.0x means ours is faster; for equal work
/// per iteration it is also our throughput over the baseline's). `heading` says so in the words
/// of the bench; `ours_label` names our function among the medians. Functions not measured in
/// this run are named as such.
pub fn print_ratios(heading: &str, ours_label: &str, cases: &[Case<'_>], since: SystemTime) {
    let home = criterion_home();
    println!();
    println!(
        "{heading} (criterion medians, this run, {}):",
        home.display()
    );
    for case in cases {
        let Some(ours) = median_ns(&home, case.group, case.ours, since) else {
            println!("  {:<28} not measured in this run", case.label);
            continue;
        };
        let mut ratios = Vec::new();
        let mut medians = vec![format!("{ours_label} {}", format_ns(ours))];
        for (function, label) in case.baselines {
            match median_ns(&home, case.group, function, since) {
                Some(theirs) => {
                    ratios.push(format!("{:.2}x vs {label}", theirs / ours));
                    medians.push(format!("{label} {}", format_ns(theirs)));
                }
                None => ratios.push(format!("{label} not measured")),
            }
        }
        println!(
            "  {:<28} {}   [medians: {}]",
            case.label,
            ratios.join(", "),
            medians.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_older_than_the_run_are_not_read() {
        let home = env::temp_dir().join(format!("a2a-bench-estimates-{}", std::process::id()));
        let dir = home.join("g").join("f").join("new");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("estimates.json"),
            r#"{"median": {"point_estimate": 1500.0}}"#,
        )
        .unwrap();
        let before = SystemTime::UNIX_EPOCH;
        assert_eq!(median_ns(&home, "g", "f", before), Some(1500.0));
        let later = SystemTime::now() + std::time::Duration::from_secs(3600);
        assert_eq!(median_ns(&home, "g", "f", later), None);
        assert_eq!(median_ns(&home, "g", "missing", before), None);
        std::fs::remove_dir_all(&home).unwrap();
    }
}
