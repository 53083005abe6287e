//! `a2a-bench`: the small jobs the bench scripts need done in Rust.
//!
//! ```text
//! a2a-bench bodies DIR                  write the decode bench's bodies into DIR
//! a2a-bench decode CASE DECODER REPS    run one decoder REPS times on its body (callgrind-decode.sh)
//! a2a-bench typify SCHEMA OUT.rs        write typify 0.8's formatted output for SCHEMA (compile-time.sh)
//! ```
//!
//! Exit status 2 on a usage error, 1 when the job fails; the reason goes to stderr.

use std::path::Path;
use std::process::ExitCode;

use a2a_bench::typify_side;
use a2a_tests::decode_workload::Bodies;

const USAGE: &str = "usage:
  a2a-bench bodies DIR
  a2a-bench decode CASE DECODER REPS
  a2a-bench typify SCHEMA OUT.rs";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["bodies", dir] => bodies(Path::new(dir)),
        ["decode", case, decoder, reps] => match reps.parse::<usize>() {
            Ok(reps) => decode(case, decoder, reps),
            Err(_) => usage(&format!("REPS must be a count, not {reps:?}")),
        },
        ["typify", schema, out] => typify(Path::new(schema), Path::new(out)),
        _ => usage("unknown command or wrong arguments"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("a2a-bench: {message}");
            ExitCode::from(code)
        }
    }
}

type Outcome = Result<(), (u8, String)>;

fn usage(why: &str) -> Outcome {
    Err((2, format!("{why}\n{USAGE}")))
}

fn bodies(dir: &Path) -> Outcome {
    let bodies = Bodies::build();
    bodies.check().map_err(|e| (1, e))?;
    bodies
        .write(dir)
        .map_err(|e| (1, format!("cannot write into {}: {e}", dir.display())))?;
    for (_, name, bytes) in bodies.files() {
        println!("{}\t{} bytes", dir.join(name).display(), bytes.len());
    }
    Ok(())
}

/// Builds the bodies, then runs the decoder `reps` times: under callgrind, the instructions of a
/// run with `reps` minus those of a run with 0 are the decoder's.
fn decode(case: &str, decoder: &str, reps: usize) -> Outcome {
    let known = Bodies::DECODERS
        .iter()
        .any(|(c, decoders)| *c == case && decoders.contains(&decoder));
    if !known {
        let known: Vec<String> = Bodies::DECODERS
            .iter()
            .map(|(case, decoders)| format!("{case}: {}", decoders.join(", ")))
            .collect();
        return usage(&format!(
            "no decoder {decoder:?} for case {case:?}; known:\n  {}",
            known.join("\n  ")
        ));
    }
    let bodies = Bodies::build();
    for _ in 0..reps {
        if bodies.run(case, std::hint::black_box(decoder)) != Some(true) {
            return Err((1, format!("{case}/{decoder} did not decode its body")));
        }
    }
    Ok(())
}

fn typify(schema: &Path, out: &Path) -> Outcome {
    let output = typify_side::generate(schema).map_err(|e| (1, e.to_string()))?;
    std::fs::write(out, &output.code)
        .map_err(|e| (1, format!("cannot write {}: {e}", out.display())))?;
    println!("{}\t{} lines", out.display(), output.code.lines().count());
    for rewrite in &output.rewrites {
        println!("rewrite\t{rewrite}");
    }
    println!("uses\t{}", output.uses.join(" "));
    Ok(())
}
