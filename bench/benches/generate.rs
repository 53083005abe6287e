//! How long a2a-codegen takes to turn a schema into formatted Rust, against typify 0.8 on the same
//! official schema files, in the same process.
//!
//! | group                    | a2a-codegen                                                          | typify 0.8 (baseline)                 |
//! |--------------------------|----------------------------------------------------------------------|---------------------------------------|
//! | `generate_spec_v1`       | `spec/v1` (our dialect, with errors.toml and methods.toml): every file of `generated/src/v1` and `ERRORS.md` | the official v1.0.1 bundle `a2a.json` |
//! | `generate_official_v1`   | the official v1.0.1 bundle + `spec/v1/overlay.toml`: the types module | the same bundle                       |
//! | `generate_official_v0_3` | the official v0.3.0 `a2a.json` + `spec/v0_3/overlay.toml`: the types module | the same file                  |
//!
//! Both sides start from the files on disk and end with formatted source in memory: a2a-codegen
//! through `Config::generate` (load, import, lower, validate, emit, prettyplease), typify through
//! [`a2a_bench::typify_side::generate`] (read, the rewrites it needs, `TypeSpace::add_root_schema`,
//! `to_stream`, syn + prettyplease). The rewrites (the v1 bundle's titled definition keys and
//! file-name `$ref`s, and the `default`s beside its inlined enums that typify rejects) are
//! documented on [`a2a_bench::typify_side::prepare`] and printed before anything is timed; the
//! v0.3.0 schema needs none.
//!
//! The official schemas are read in place from `../shared` (or `$A2A_SHARED_DIR`) by the rule of
//! [`a2a_tests::shared_dir`]: without the folder the bench prints a skip, and under `CI` it fails.
//!
//! After criterion's report, `main` prints per group typify's median time divided by
//! a2a-codegen's (above 1.0x, a2a-codegen is faster), from the estimates of this run. Under
//! `--test` each function runs once (the CI smoke test) and no ratio is printed.
//!
//! Run: `cargo bench -p a2a-bench --bench generate` (about a minute).

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, SystemTime};

use a2a_bench::{
    codegen_official, codegen_spec_v1, lines, overlay_v0_3, overlay_v1, typify_side, Official,
};
use a2a_tests::bench::{self, Case};

/// One group: its name, how the table heads it, and the inputs of both sides.
struct Group<'a> {
    name: &'static str,
    label: &'static str,
    /// `None`: a2a-codegen on `spec/v1`; `Some((schema, overlay))`: on a published schema.
    ours: Option<(&'a Path, &'a Path)>,
    typify: &'a Path,
}

fn ours(root: &Path, group: &Group<'_>) -> Result<Vec<a2a_codegen::GeneratedFile>, String> {
    match group.ours {
        None => codegen_spec_v1(root),
        Some((schema, overlay)) => codegen_official(schema, overlay),
    }
    .map_err(|e| format!("{}: a2a-codegen failed: {e}", group.name))
}

/// Runs both sides once, says what each produced and what typify needed rewritten.
fn check(root: &Path, groups: &[Group<'_>]) -> Result<(), String> {
    println!(
        "generate bench: what each side produces from the same input (checked before timing):"
    );
    for group in groups {
        let files = ours(root, group)?;
        let typify = typify_side::generate(group.typify)
            .map_err(|e| format!("{}: {}: {e}", group.name, group.typify.display()))?;
        println!(
            "  {:<24} a2a-codegen {} files, {} lines of Rust; typify 0.8 {} lines (uses {})",
            group.name,
            files.len(),
            lines(&files),
            typify.code.lines().count(),
            typify.uses.join(", ")
        );
        for rewrite in &typify.rewrites {
            println!("  {:<24}   typify input rewritten: {rewrite}", "");
        }
    }
    Ok(())
}

fn main() {
    let started = SystemTime::now();
    let mode = bench::mode();
    let root = a2a_bench::workspace_root();
    let Some(official) = Official::locate("generate bench (official A2A schemas)") else {
        println!("generate bench: skipped, nothing timed");
        return;
    };
    let (overlay_v1, overlay_v0_3) = (overlay_v1(&root), overlay_v0_3(&root));
    let groups = [
        Group {
            name: "generate_spec_v1",
            label: "spec/v1 vs official v1",
            ours: None,
            typify: &official.v1,
        },
        Group {
            name: "generate_official_v1",
            label: "official v1 (both)",
            ours: Some((&official.v1, &overlay_v1)),
            typify: &official.v1,
        },
        Group {
            name: "generate_official_v0_3",
            label: "official v0.3.0 (both)",
            ours: Some((&official.v0_3, &overlay_v0_3)),
            typify: &official.v0_3,
        },
    ];
    if let Err(e) = check(&root, &groups) {
        eprintln!("generate bench: {e}");
        std::process::exit(1);
    }

    let mut criterion = bench::criterion(20, Duration::from_secs(1), Duration::from_secs(5));
    for group in &groups {
        let mut g = criterion.benchmark_group(group.name);
        // Both sides succeeded in check(); the closures return that bool rather than unwrap.
        g.bench_function("a2a_codegen", |b| {
            b.iter(|| ours(black_box(&root), group).is_ok())
        });
        g.bench_function("typify", |b| {
            b.iter(|| typify_side::generate(black_box(group.typify)).is_ok())
        });
        g.finish();
    }
    criterion.final_summary();

    if bench::ratios_wanted(mode, "") {
        let cases: Vec<Case<'_>> = groups
            .iter()
            .map(|group| Case {
                label: group.label,
                group: group.name,
                ours: "a2a_codegen",
                baselines: &[("typify", "typify 0.8")],
            })
            .collect();
        bench::print_ratios(
            "ratios: time of typify 0.8 / time of a2a-codegen on the same file (above 1.0x: a2a-codegen is faster)",
            "a2a-codegen",
            &cases,
            started,
        );
    }
}
