//! `protobuf_cost`: a2a-types' protobuf codec (`a2a_types::rt::protobuf::Message` on the
//! generated `v1::Task`) against prost (prost-build's structs for the same normative proto, built
//! by build.rs with feature `prost-baseline`), encoding and decoding the same `Task`.
//!
//! ```text
//! protobuf_cost CASE IMPL OP REPS     CASE task_2kb|task_200kb, IMPL ours|prost, OP encode|decode:
//!                                     REPS operations after the setup (bench/protobuf-cost.sh runs
//!                                     it under callgrind; REPS 0 is the setup alone)
//! protobuf_cost --wall [ROUNDS]       wall clock: median ns per operation of each, and the median
//!                                     of the rounds' ratios ours/prost (default 11 rounds)
//! protobuf_cost --smoke               the setup's checks, then a few operations of each (CI)
//! ```
//!
//! The values: the decode bench's bodies (`a2a_tests::decode_workload`, the same bytes on every
//! run), whose `result` is decoded from JSON into `v1::Task` and encoded to protobuf by a2a-types;
//! prost's `Task` is prost's decode of those bytes, so both sides hold the same value. The setup
//! is the same whatever the arguments (both values, both encodings, the checks below), so that
//! one REPS 0 run is the baseline of every (IMPL, OP) of a case. Checked once per run: each side
//! decodes the other's bytes and re-encodes them to the same length, and each side's value
//! survives the round trip through the other (`--smoke` says whether the bytes are the same
//! too). Decoding decodes the same bytes on both sides (a2a-types' encoding); encoding encodes
//! each side's own value. Every result goes through `black_box`, so that the compiler cannot drop
//! the work.
//!
//! Without the normative proto (../shared, or `$A2A_SHARED_DIR`) the build has no prost types:
//! the binary prints `SKIPPED ...` and exits 0 (the build itself fails when `CI` is set).
//!
//! Exit status 2 on a usage error, 1 when a check fails.

use std::process::ExitCode;

#[cfg(prost_baseline)]
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["--smoke"] => run::smoke(),
        ["--wall"] => run::wall(11),
        ["--wall", rounds] => match rounds.parse::<usize>() {
            Ok(rounds) if rounds > 0 => run::wall(rounds),
            _ => usage(&format!("ROUNDS must be a positive count, not {rounds:?}")),
        },
        [case, imp, op, reps] => match reps.parse::<usize>() {
            Ok(reps) => run::reps(case, imp, op, reps),
            Err(_) => usage(&format!("REPS must be a count, not {reps:?}")),
        },
        _ => usage("wrong arguments"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("protobuf_cost: {message}");
            ExitCode::from(code)
        }
    }
}

#[cfg(not(prost_baseline))]
fn main() -> ExitCode {
    println!(
        "SKIPPED protobuf_cost: built without prost's types: {}",
        option_env!("PROST_BASELINE_SKIPPED").unwrap_or("see bench/build.rs")
    );
    ExitCode::SUCCESS
}

#[cfg(prost_baseline)]
type Outcome = Result<(), (u8, String)>;

#[cfg(prost_baseline)]
fn usage(why: &str) -> Outcome {
    Err((
        2,
        format!(
            "{why}\nusage:\n  protobuf_cost task_2kb|task_200kb ours|prost encode|decode REPS\n  \
             protobuf_cost --wall [ROUNDS]\n  protobuf_cost --smoke"
        ),
    ))
}

/// prost-build's structs for package `lf.a2a.v1` of the normative proto (build.rs).
#[cfg(prost_baseline)]
#[allow(clippy::all, clippy::pedantic, dead_code, missing_docs)]
mod pb {
    include!(concat!(env!("OUT_DIR"), "/lf.a2a.v1.rs"));
}

#[cfg(prost_baseline)]
mod run {
    use super::{pb, usage, Outcome};
    use a2a_tests::decode_workload::{plain, Bodies};
    use a2a_types::rt::protobuf::Message as _;
    use a2a_types::v1::Task;
    use std::hint::black_box;
    use std::time::Instant;

    /// The cases, by the decode bench's names.
    const CASES: [&str; 2] = ["task_2kb", "task_200kb"];

    /// One case's values and bytes, checked.
    struct Case {
        ours: Task,
        prost: pb::Task,
        /// a2a-types' encoding of `ours`: the bytes both sides decode.
        bytes: Vec<u8>,
        /// Whether prost's encoding of its value is byte for byte `bytes`.
        same_bytes: bool,
    }

    impl Case {
        fn build(bodies: &Bodies, name: &str) -> Result<Case, (u8, String)> {
            let fail = |what: String| (1, format!("{name}: {what}"));
            let json = match name {
                "task_2kb" => &bodies.task_2kb,
                "task_200kb" => &bodies.task_200kb,
                _ => return Err(fail("not a case".into())),
            };
            let ours: Task = plain(json).map_err(|e| fail(format!("the JSON body: {e}")))?;
            let bytes = ours.encode_to_vec();
            if bytes.len() != ours.encoded_len() {
                return Err(fail("a2a-types' encoded_len is not its encoding's".into()));
            }
            let prost = <pb::Task as prost::Message>::decode(&bytes[..])
                .map_err(|e| fail(format!("prost cannot decode a2a-types' bytes: {e}")))?;
            let prost_bytes = prost::Message::encode_to_vec(&prost);
            if prost_bytes.len() != bytes.len() {
                return Err(fail(format!(
                    "prost re-encodes a2a-types' {} bytes as {} bytes",
                    bytes.len(),
                    prost_bytes.len()
                )));
            }
            let back = Task::decode(&prost_bytes)
                .map_err(|e| fail(format!("a2a-types cannot decode prost's bytes: {e}")))?;
            if back != ours {
                return Err(fail("a2a-types' value changed through prost".into()));
            }
            let again = back.encode_to_vec();
            if again.len() != bytes.len() {
                return Err(fail(
                    "a2a-types re-encodes prost's bytes to another length".into(),
                ));
            }
            if <pb::Task as prost::Message>::decode(&again[..])
                .ok()
                .as_ref()
                != Some(&prost)
            {
                return Err(fail("prost's value changed through a2a-types".into()));
            }
            // Not always byte for byte: a `Struct` (the task's metadata) is written in its map's
            // order, which is insertion order when serde_json's `preserve_order` is on (as in
            // this workspace), where prost's `BTreeMap` sorts its keys.
            let same_bytes = prost_bytes == bytes;
            Ok(Case {
                ours,
                prost,
                bytes,
                same_bytes,
            })
        }

        /// One operation, its result through `black_box`.
        #[inline(always)]
        fn once(&self, imp: Impl, op: Op) {
            match (imp, op) {
                (Impl::Ours, Op::Encode) => {
                    black_box(black_box(&self.ours).encode_to_vec());
                }
                (Impl::Prost, Op::Encode) => {
                    black_box(prost::Message::encode_to_vec(black_box(&self.prost)));
                }
                (Impl::Ours, Op::Decode) => {
                    black_box(Task::decode(black_box(&self.bytes)).expect("decodes"));
                }
                (Impl::Prost, Op::Decode) => {
                    black_box(
                        <pb::Task as prost::Message>::decode(&black_box(&self.bytes)[..])
                            .expect("decodes"),
                    );
                }
            }
        }

        /// `reps` operations; the time they took.
        #[inline(never)]
        fn time(&self, imp: Impl, op: Op, reps: usize) -> std::time::Duration {
            let start = Instant::now();
            for _ in 0..reps {
                self.once(imp, op);
            }
            start.elapsed()
        }
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Impl {
        Ours,
        Prost,
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Op {
        Encode,
        Decode,
    }

    const OPS: [(Op, &str); 2] = [(Op::Encode, "encode"), (Op::Decode, "decode")];

    /// Every case built and checked: the same setup for every mode and argument.
    fn setup() -> Result<Vec<(&'static str, Case)>, (u8, String)> {
        let bodies = Bodies::build();
        CASES
            .iter()
            .map(|&name| Case::build(&bodies, name).map(|case| (name, case)))
            .collect()
    }

    pub fn reps(case: &str, imp: &str, op: &str, reps: usize) -> Outcome {
        let imp = match imp {
            "ours" => Impl::Ours,
            "prost" => Impl::Prost,
            _ => return usage(&format!("IMPL is ours or prost, not {imp:?}")),
        };
        let Some(&(op, _)) = OPS.iter().find(|(_, name)| *name == op) else {
            return usage(&format!("OP is encode or decode, not {op:?}"));
        };
        if !CASES.contains(&case) {
            return usage(&format!("CASE is task_2kb or task_200kb, not {case:?}"));
        }
        let cases = setup()?;
        let (_, case) = cases
            .iter()
            .find(|(name, _)| *name == case)
            .expect("checked above");
        black_box(case.time(imp, op, reps));
        Ok(())
    }

    pub fn smoke() -> Outcome {
        for (name, case) in setup()? {
            for (op, op_name) in OPS {
                for imp in [Impl::Ours, Impl::Prost] {
                    case.time(imp, op, 3);
                }
                println!("{name} {op_name}: ours and prost, 3 each");
            }
            println!(
                "{name}: {} bytes of protobuf; prost decodes them and re-encodes them to {}",
                case.bytes.len(),
                if case.same_bytes {
                    "the same bytes"
                } else {
                    "the same length (other bytes)"
                }
            );
        }
        println!("protobuf_cost --smoke: ok");
        Ok(())
    }

    /// Operations per timed batch: about 10 ms of work on this machine.
    fn batch(case: &str, op: Op) -> usize {
        match (case, op) {
            ("task_2kb", Op::Encode) => 20_000,
            ("task_2kb", Op::Decode) => 5_000,
            (_, Op::Encode) => 200,
            (_, Op::Decode) => 50,
        }
    }

    fn median(values: &mut [f64]) -> f64 {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    }

    pub fn wall(rounds: usize) -> Outcome {
        let cases = setup()?;
        println!(
            "protobuf_cost --wall: {rounds} rounds, ours and prost in turn (their order \
             alternating), one batch each per round"
        );
        println!(
            "{:<11} {:<7} {:>8} {:>14} {:>14} {:>11} {:>11} {:>11}",
            "case",
            "op",
            "bytes",
            "ours ns/op",
            "prost ns/op",
            "ours/prost",
            "min ratio",
            "max ratio"
        );
        for (name, case) in &cases {
            for (op, op_name) in OPS {
                let n = batch(name, op);
                // Warm-up: the allocator's arenas, the caches.
                case.time(Impl::Ours, op, n / 10 + 1);
                case.time(Impl::Prost, op, n / 10 + 1);
                let (mut ours, mut prost, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
                for round in 0..rounds {
                    let order = if round % 2 == 0 {
                        [Impl::Ours, Impl::Prost]
                    } else {
                        [Impl::Prost, Impl::Ours]
                    };
                    let mut ns = [0.0; 2];
                    for imp in order {
                        let per = case.time(imp, op, n).as_nanos() as f64 / n as f64;
                        ns[usize::from(imp == Impl::Prost)] = per;
                    }
                    ours.push(ns[0]);
                    prost.push(ns[1]);
                    ratios.push(ns[0] / ns[1]);
                }
                let (lo, hi) = ratios
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
                println!(
                    "{:<11} {:<7} {:>8} {:>14.0} {:>14.0} {:>10.3}x {:>10.3}x {:>10.3}x",
                    name,
                    op_name,
                    case.bytes.len(),
                    median(&mut ours),
                    median(&mut prost),
                    median(&mut ratios),
                    lo,
                    hi
                );
            }
        }
        println!(
            "(medians over the rounds; ours/prost is the median of the rounds' ratios, above 1 \
             a2a-types is slower. Wall clock on a shared machine is noisy: the instruction counts \
             of bench/protobuf-cost.sh are the stable measure)"
        );
        Ok(())
    }
}
