//! `cargo xtask bump-rehearsal`: proves that a spec bump drops in and builds.
//!
//! A scratch copy of the workspace (every file git tracks, as it is on disk) gets a grown
//! `spec/v1/a2a.proto`: a field on `Task`, which hand-written code builds, an int64 field there, a uint64
//! field on `Message`, a new `TaskState` value, a new member of `Part`'s oneof, a new message with int64
//! fields and a new RPC with an HTTP binding. The generator runs on the copy, and then:
//!
//! 1. the generated code contains every new item;
//! 2. `cargo check --workspace --all-features` passes: no hand-written code broke;
//! 3. the fixture-coverage test fails, naming the new message type;
//! 4. with a fixture for the new type added, every v1 message (the grown `Task` included) round-trips
//!    through both crates, JSON and binary, with its int64 values as ProtoJSON strings.
//!
//! The copy builds in `target/bump-rehearsal/target`, never in the workspace's own target directory: two
//! copies of one workspace in one target directory share artifact names, and cargo would mix them up. To
//! keep the rehearsal to a few minutes, that directory starts with the workspace's built dependencies,
//! hard-linked rather than copied (see [`seed`]); every workspace crate is rebuilt. A rehearsal that passes
//! removes its target directory again, so a CI run ends with no more on disk than it had before.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail, ensure};

use crate::codegen::project_root;

mod seed;

/// Field and enum numbers far above anything upstream uses, so a real bump never collides with them.
const TASK_FIELDS: &str = "  int64 rehearsal_generation = 900;\n  string rehearsal_note = 901;\n";
const MESSAGE_FIELD: &str = "  uint64 rehearsal_sequence = 900;\n";
const TASK_STATE_VALUE: &str = "  TASK_STATE_REHEARSAL = 900;\n";
const PART_MEMBER: &str = "    string rehearsal_ref = 900;\n";
const NEW_MESSAGE: &str = "
// Added by the bump rehearsal.
message RehearsalProbe {
  string id = 1 [(google.api.field_behavior) = REQUIRED];
  int64 counter = 2;
  repeated int64 samples = 3;
}
";
const NEW_RPC: &str = "  // Added by the bump rehearsal.
  rpc ProbeRehearsal(RehearsalProbe) returns (RehearsalProbe) {
    option (google.api.http) = {
      post: \"/rehearsal/{id=*}:probe\"
      body: \"*\"
      additional_bindings: {
        post: \"/{tenant}/rehearsal/{id=*}:probe\"
        body: \"*\"
      }
    };
  }
";

/// The new message's fixture: canonical ProtoJSON, int64 values written as strings (one beyond 2^53).
const NEW_FIXTURE: &str = r#"{
  "id": "probe-1",
  "counter": "9007199254740993",
  "samples": ["-9223372036854775808", "0", "9223372036854775807"]
}
"#;

/// The fixture-coverage test, alone (the name is stable: the rehearsal depends on it).
const COVERAGE_TEST: &[&str] = &[
    "round_trip_v1::registry_and_fixtures_cover_every_message_of_the_descriptor",
    "--exact",
];

/// Every fixture round trip (JSON and binary, through both crates, and the conversions between them)
/// and the v1 property tests, whose generated strategies now fill the new fields too.
const ROUND_TRIP_TESTS: &[&str] = &["round_trip_v1::", "types_v1::", "round_trip_proptest_v1::"];

/// `cargo test` of the workspace's test binary, with libtest arguments.
fn suite_test(libtest_args: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec![
        "test",
        "-p",
        "a2a-tests",
        "--all-features",
        "--locked",
        "--test",
        "suite",
        "--",
    ];
    args.extend_from_slice(libtest_args);
    args
}

pub(crate) fn run() -> Result<()> {
    let started = Instant::now();
    let root = project_root();
    let base = root.join("target/bump-rehearsal");
    let scratch = base.join("workspace");
    let target_dir = base.join("target");

    step("copy the workspace", || copy_tracked_files(&root, &scratch))?;
    step("seed the copy's target directory", || {
        seed::seed_target_dir(&root, &root.join("target/debug"), &target_dir)
    })?;
    step("grow spec/v1/a2a.proto", || {
        grow_spec(&scratch.join("spec/v1/a2a.proto"))
    })?;
    step("cargo xtask codegen (on the copy)", || {
        let status = Command::new(std::env::current_exe()?)
            .arg("codegen")
            .env("A2A_XTASK_ROOT", &scratch)
            .status()
            .context("running the generator")?;
        ensure!(status.success(), "the generator failed on the grown spec");
        Ok(())
    })?;
    step("the generated code has every new item", || {
        check_generated(&scratch)
    })?;
    step("cargo check --workspace --all-features", || {
        let output = cargo(
            &scratch,
            &target_dir,
            &["check", "--workspace", "--all-features", "--locked"],
        )?;
        ensure!(
            output.status.success(),
            "hand-written code no longer compiles after the bump:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        Ok(())
    })?;
    step("the fixture-coverage test names the new message", || {
        let output = cargo(&scratch, &target_dir, &suite_test(COVERAGE_TEST))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        ensure!(
            !output.status.success(),
            "the fixture-coverage test passed although lf.a2a.v1.RehearsalProbe has no fixture:\n{text}"
        );
        ensure!(
            text.contains("lf.a2a.v1.RehearsalProbe"),
            "the fixture-coverage test failed without naming lf.a2a.v1.RehearsalProbe:\n{text}"
        );
        Ok(())
    })?;
    step("with its fixture, every v1 message round-trips", || {
        std::fs::write(
            scratch.join("tests/fixtures/v1/RehearsalProbe.json"),
            NEW_FIXTURE,
        )?;
        let output = cargo(&scratch, &target_dir, &suite_test(ROUND_TRIP_TESTS))?;
        ensure!(
            output.status.success(),
            "the v1 round trips fail after the bump:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        Ok(())
    })?;
    step("remove the copy's target directory", || {
        std::fs::remove_dir_all(&target_dir)
            .with_context(|| format!("removing {}", target_dir.display()))
    })?;
    eprintln!(
        "bump rehearsal passed in {:.0?}; the copy is in {}",
        started.elapsed(),
        scratch.display()
    );
    Ok(())
}

fn step(name: &str, work: impl FnOnce() -> Result<()>) -> Result<()> {
    eprintln!("==> {name}");
    let started = Instant::now();
    work().with_context(|| format!("bump rehearsal step `{name}`"))?;
    eprintln!("    ({:.1?})", started.elapsed());
    Ok(())
}

/// Copies what a clean checkout holds (git's tracked files, with their contents on disk) to `scratch`.
fn copy_tracked_files(root: &Path, scratch: &Path) -> Result<()> {
    if scratch.exists() {
        std::fs::remove_dir_all(scratch)
            .with_context(|| format!("removing the old copy {}", scratch.display()))?;
    }
    let listing = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .context("running `git ls-files` (the rehearsal copies what git tracks)")?;
    ensure!(listing.status.success(), "`git ls-files` failed");
    for name in listing.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let relative = PathBuf::from(String::from_utf8(name.to_vec())?);
        let from = root.join(&relative);
        if !from.is_file() {
            // Deleted in the working tree but not yet in the index.
            continue;
        }
        let to = scratch.join(&relative);
        std::fs::create_dir_all(to.parent().expect("a file has a parent"))?;
        std::fs::copy(&from, &to).with_context(|| format!("copying {}", relative.display()))?;
    }
    Ok(())
}

fn grow_spec(path: &Path) -> Result<()> {
    let mut proto = std::fs::read_to_string(path)?;
    insert_before_block_end(&mut proto, &["message Task {"], TASK_FIELDS)?;
    insert_before_block_end(&mut proto, &["message Message {"], MESSAGE_FIELD)?;
    insert_before_block_end(&mut proto, &["enum TaskState {"], TASK_STATE_VALUE)?;
    insert_before_block_end(
        &mut proto,
        &["message Part {", "oneof content {"],
        PART_MEMBER,
    )?;
    insert_before_block_end(&mut proto, &["service A2AService {"], NEW_RPC)?;
    proto.push_str(NEW_MESSAGE);
    std::fs::write(path, proto)?;
    Ok(())
}

/// Inserts `lines` just before the closing brace of the block reached by opening each of `openers` in
/// turn (a top-level declaration, then blocks nested in it).
fn insert_before_block_end(text: &mut String, openers: &[&str], lines: &str) -> Result<()> {
    let mut from = 0;
    let mut end = text.len();
    for opener in openers {
        let found = text[from..end].find(opener).with_context(|| {
            format!("`{opener}` not found in the spec (has upstream renamed it?)")
        })?;
        let open = from + found + opener.len();
        end = open
            + matching_brace(&text[open..])
                .with_context(|| format!("no closing brace for `{opener}`"))?;
        from = open;
    }
    // Insert at the start of the line holding the closing brace.
    let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
    text.insert_str(line_start, lines);
    Ok(())
}

/// The offset of the brace closing a block whose opening brace precedes `text`, skipping comments and
/// string literals.
fn matching_brace(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += text[i..].find('\n').unwrap_or(text.len() - i);
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Every addition reached the generated code of both crates and the JSON Schema.
fn check_generated(scratch: &Path) -> Result<()> {
    let expectations: &[(&str, &[&str])] = &[
        (
            "a2a-proto/src/generated/lf.a2a.v1.rs",
            &[
                "pub struct RehearsalProbe",
                "pub rehearsal_generation: i64",
                "pub rehearsal_sequence: u64",
                "Rehearsal = 900",
                "RehearsalRef(",
            ],
        ),
        (
            "a2a-types/src/v1/generated/types.rs",
            &[
                "pub struct RehearsalProbe",
                "pub rehearsal_generation:",
                "pub rehearsal_sequence:",
                "pub rehearsal_note:",
            ],
        ),
        (
            "a2a-types/src/v1/generated/unions.rs",
            &["Rehearsal", "RehearsalRef("],
        ),
        (
            "spec/v1/generated/a2a.json",
            &[
                "\"RehearsalProbe\"",
                "\"rehearsalGeneration\"",
                "\"rehearsalRef\"",
            ],
        ),
        ("tests/src/generated/strategies_v1.rs", &["RehearsalProbe"]),
    ];
    let mut missing = Vec::new();
    for (file, needles) in expectations {
        let text = std::fs::read_to_string(scratch.join(file))
            .with_context(|| format!("reading generated {file}"))?;
        missing.extend(
            needles
                .iter()
                .filter(|needle| !text.contains(*needle))
                .map(|needle| format!("{file}: `{needle}`")),
        );
    }
    if !missing.is_empty() {
        bail!("the generated code lacks:\n  {}", missing.join("\n  "));
    }
    Ok(())
}

fn cargo(dir: &Path, target_dir: &Path, args: &[&str]) -> Result<std::process::Output> {
    eprintln!("    cargo {}", args.join(" "));
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir)
        // The interop suites are not part of the rehearsal; under CI they would fail rather than skip.
        .env_remove("CI")
        .env_remove("A2A_INTEROP_PYTHON")
        .output()
        .with_context(|| format!("running cargo {}", args.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_before_the_closing_brace_of_a_nested_block() {
        let mut text = "message Part {\n  oneof content {\n    string text = 1; // {not a brace}\n  }\n  string s = 5;\n}\nmessage Task {\n  string id = 1;\n}\n".to_owned();
        insert_before_block_end(&mut text, &["message Part {", "oneof content {"], "    X\n")
            .unwrap();
        insert_before_block_end(&mut text, &["message Task {"], "  Y\n").unwrap();
        assert_eq!(
            text,
            "message Part {\n  oneof content {\n    string text = 1; // {not a brace}\n    X\n  }\n  string s = 5;\n}\nmessage Task {\n  string id = 1;\n  Y\n}\n"
        );
    }

    #[test]
    fn braces_inside_strings_do_not_count() {
        assert_eq!(matching_brace(r#" post: "/{tenant}/x" } rest"#), Some(21));
    }

    #[test]
    fn a_missing_declaration_is_named() {
        let mut text = "message Task {\n}\n".to_owned();
        let error = insert_before_block_end(&mut text, &["enum TaskState {"], "x").unwrap_err();
        assert!(error.to_string().contains("enum TaskState {"), "{error}");
    }
}
