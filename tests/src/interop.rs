//! The harness shared by the SDK interop tests (`tests/tests/suite/interop_*.rs`): it has the official Python
//! SDK write vectors (`tests/interop/sdk_vectors.py generate`), runs each Rust implementation under test
//! (a [`Decoder`]) over them, has the SDK read back what we wrote (`check`), and reports pass counts.
//! See `proto_interop_v1.rs` for what is compared.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use a2a_proto::registry::{MessageVisitor, ProtoMessage};
use serde_json::{Value, json};

use crate::{json_differences, json_equivalent, workspace_root};

/// Which protocol version a test runs: the SDK's module for it and the script's package option.
pub struct Suite {
    /// Short name, used in messages and output directories (`v1`, `v0_3`).
    pub name: &'static str,
    /// What `sdk_vectors.py` needs to select the package (empty for v1, its default).
    pub package_args: &'static [&'static str],
    /// A Python module the SDK interpreter must be able to import for this suite.
    pub sdk_module: &'static str,
}

/// One Rust implementation of `lf.a2a.v1` under test.
pub struct Decoder {
    /// Names the implementation in reports and its output directory.
    pub name: &'static str,
    /// Full names of the message types it implements; each must have SDK vectors, and the reverse.
    pub message_names: &'static [&'static str],
    /// Decodes one vector, compares with the SDK's JSON and re-encodes it.
    pub run: fn(&Vector) -> Outcome,
}

/// One case of the SDK's manifest, with its files read.
pub struct Vector {
    pub type_name: String,
    pub case: String,
    /// The JSON input: the SDK's canonical output, or lenient input for JSON-only cases.
    pub json: String,
    /// The SDK's deterministic binary encoding; `None` for JSON-only cases.
    pub binpb: Option<Vec<u8>>,
    /// The SDK's canonical JSON for the message.
    pub expected: Value,
}

impl Vector {
    pub fn key(&self) -> (String, String) {
        (self.type_name.clone(), self.case.clone())
    }
}

/// What one decoder made of one vector.
#[derive(Default)]
pub struct Outcome {
    /// Our JSON and binary, for the SDK to parse back; `None` when the vector could not be decoded.
    pub output: Option<(String, Vec<u8>)>,
    /// Everything that went wrong, except differences only in how numbers are written.
    pub failures: Vec<String>,
    /// JSON that equals the SDK's when numbers are compared by value, but is written differently.
    pub number_format: Vec<String>,
    /// Whether our re-encoding of the SDK's binary is byte for byte the SDK's (not required by protobuf).
    pub binary_identical: Option<bool>,
    /// Why the implementation deliberately does not reproduce this vector (documented design choices
    /// only; the SDK check lists the case as declined).
    pub declined: Option<String>,
}

impl Outcome {
    pub fn failed(failure: String) -> Self {
        Self {
            failures: vec![failure],
            ..Self::default()
        }
    }

    /// Compares our JSON with the SDK's: exactly, and by value where that fails.
    pub fn compare_json(&mut self, label: &str, ours: &str, sdk: &Value) {
        let ours: Value = match serde_json::from_str(ours) {
            Ok(value) => value,
            Err(error) => {
                self.failures
                    .push(format!("{label}: we wrote invalid JSON: {error}"));
                return;
            }
        };
        if &ours == sdk {
            return;
        }
        let differences = truncate(&json_differences(&ours, sdk).join("; "), 1500);
        if json_equivalent(&ours, sdk) {
            self.number_format.push(format!("{label}: {differences}"));
        } else {
            self.failures.push(format!("{label}: {differences}"));
        }
    }
}

pub fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{} …", &text[..end]),
        None => text.to_owned(),
    }
}

pub struct ProtoRoundTrip<'a>(pub &'a Vector);

impl MessageVisitor for ProtoRoundTrip<'_> {
    type Output = Outcome;

    fn visit<M: ProtoMessage>(self) -> Outcome {
        let vector = self.0;
        let from_json: M = match a2a_proto::json::from_str(&vector.json) {
            Ok(message) => message,
            Err(error) => return Outcome::failed(format!("JSON decode: {error}")),
        };
        let json_out = match a2a_proto::json::to_string(&from_json) {
            Ok(text) => text,
            Err(error) => return Outcome::failed(format!("JSON encode: {error}")),
        };
        let mut outcome = Outcome::default();
        outcome.compare_json("JSON in, JSON out", &json_out, &vector.expected);

        let mut binary_out = from_json.encode_to_vec();
        if M::decode(binary_out.as_slice()).ok().as_ref() != Some(&from_json) {
            outcome.failures.push(
                "JSON in, binary out: our binary does not decode to the message we encoded"
                    .to_owned(),
            );
        }

        if let Some(sdk_binary) = &vector.binpb {
            match M::decode(sdk_binary.as_slice()) {
                Err(error) => outcome.failures.push(format!("binary decode: {error}")),
                Ok(from_binary) => {
                    if from_binary != from_json {
                        outcome.failures.push(format!(
                            "the SDK's binary and JSON decode to different messages: {}",
                            message_differences(&from_binary, &from_json)
                        ));
                    }
                    binary_out = from_binary.encode_to_vec();
                    if M::decode(binary_out.as_slice()).ok().as_ref() != Some(&from_binary) {
                        outcome.failures.push(
                            "binary in, binary out: our binary does not decode to the message we encoded"
                                .to_owned(),
                        );
                    }
                    outcome.binary_identical = Some(&binary_out == sdk_binary);
                    match a2a_proto::json::to_string(&from_binary) {
                        Ok(text) => {
                            outcome.compare_json("binary in, JSON out", &text, &vector.expected)
                        }
                        Err(error) => outcome
                            .failures
                            .push(format!("binary in, JSON out: encode: {error}")),
                    }
                }
            }
        }
        outcome.output = Some((json_out, binary_out));
        outcome
    }
}

/// Where two messages differ, through their JSON, or their debug form where the JSON is the same.
pub fn message_differences<M: ProtoMessage>(from_binary: &M, from_json: &M) -> String {
    let as_json = |m: &M| serde_json::to_value(m).unwrap_or(Value::Null);
    let differences = json_differences(&as_json(from_binary), &as_json(from_json));
    if differences.is_empty() {
        truncate(
            &format!("from binary {from_binary:?}, from JSON {from_json:?}"),
            1500,
        )
    } else {
        truncate(
            &format!(
                "(ours: from binary, reference: from JSON) {}",
                differences.join("; ")
            ),
            1500,
        )
    }
}

/// The Python interpreter that has the SDK, or `None` (after saying why) where the test is skipped.
pub fn python(suite: &Suite) -> Option<PathBuf> {
    python_from(
        suite,
        "A2A_INTEROP_PYTHON",
        ".venv",
        "tests/interop/requirements.txt",
    )
}

/// The Python interpreter that has the SDK 0.3.x (`A2A_INTEROP_PYTHON_V0_3`, else the workspace's
/// `.venv-v0_3`), or `None` (after saying why) where the test is skipped.
pub fn python_v0_3(suite: &Suite) -> Option<PathBuf> {
    python_from(
        suite,
        "A2A_INTEROP_PYTHON_V0_3",
        ".venv-v0_3",
        "tests/interop/requirements-v0_3.txt",
    )
}

/// The Python interpreter that has the SDK 0.2.x (`A2A_INTEROP_PYTHON_V0_2`, else the workspace's
/// `.venv-v0_2`), or `None` (after saying why) where the test is skipped.
pub fn python_v0_2(suite: &Suite) -> Option<PathBuf> {
    python_from(
        suite,
        "A2A_INTEROP_PYTHON_V0_2",
        ".venv-v0_2",
        "tests/interop/requirements-v0_2.txt",
    )
}

/// The interpreter named by the environment variable `variable`, else the workspace's `venv`, that
/// can import `suite.sdk_module`; skips (`None`) with one line without one, and fails under `CI=true`.
fn python_from(suite: &Suite, variable: &str, venv: &str, requirements: &str) -> Option<PathBuf> {
    let imports_sdk = |python: &Path| {
        Command::new(python)
            .args(["-c", &format!("import {}", suite.sdk_module)])
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if let Some(python) = std::env::var_os(variable).filter(|p| !p.is_empty()) {
        let python = PathBuf::from(python);
        assert!(
            imports_sdk(&python),
            "{variable}={} cannot import the A2A SDK ({}): install {requirements} into it",
            python.display(),
            suite.sdk_module
        );
        return Some(python);
    }
    let venv = workspace_root().join(venv).join("bin/python");
    if venv.exists() && imports_sdk(&venv) {
        return Some(venv);
    }
    let why = if venv.exists() {
        format!(
            "{variable} is not set and {} cannot import the A2A SDK",
            venv.display()
        )
    } else {
        format!(
            "{variable} is not set and {} does not exist",
            venv.display()
        )
    };
    let on_ci = std::env::var("CI").is_ok_and(|ci| ci.eq_ignore_ascii_case("true") || ci == "1");
    assert!(
        !on_ci,
        "CI is set, so the Python SDK interop test must run, but {why} (.ci/run installs \
         {requirements} and exports {variable})"
    );
    eprintln!(
        "SKIPPED interop {}: {why}; nothing was compared (run .ci/run or install {requirements})",
        suite.name
    );
    None
}

/// Runs `sdk_vectors.py COMMAND [--package …] DIR`, returning its exit success and standard output.
pub fn sdk_vectors(suite: &Suite, python: &Path, command: &str, dir: &Path) -> (bool, String) {
    let mut args = vec![command];
    args.extend(suite.package_args);
    run_script(python, "sdk_vectors.py", &args, dir)
}

/// Runs `python tests/interop/SCRIPT ARGS… DIR` with no stdin, echoing its stderr, and returns its exit
/// success and standard output.
pub fn run_script(python: &Path, script: &str, args: &[&str], dir: &Path) -> (bool, String) {
    let path = workspace_root().join("tests/interop").join(script);
    let output = Command::new(python)
        .arg(&path)
        .args(args)
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("running {} {}: {e}", python.display(), path.display()));
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !stderr.trim().is_empty() {
        eprintln!("{script} {args:?} (stderr):\n{stderr}");
    }
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

pub fn read_vectors(dir: &Path) -> Vec<Vector> {
    let read = |name: &str| {
        fs::read(dir.join(name))
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.join(name).display()))
    };
    let manifest: Value =
        serde_json::from_slice(&read("manifest.json")).expect("manifest.json is JSON");
    let field = |entry: &Value, key: &str| {
        entry[key]
            .as_str()
            .unwrap_or_else(|| panic!("manifest entry without {key}: {entry}"))
            .to_owned()
    };
    manifest
        .as_array()
        .expect("the manifest is a list")
        .iter()
        .map(|entry| Vector {
            type_name: field(entry, "type"),
            case: field(entry, "case"),
            json: String::from_utf8(read(&field(entry, "json"))).expect("JSON vectors are UTF-8"),
            binpb: entry["binpb"].as_str().map(read),
            expected: written_in_full(
                &field(entry, "type"),
                serde_json::from_slice(&read(&field(entry, "expected_json")))
                    .expect("the SDK's expected JSON is JSON"),
            ),
        })
        .collect()
}

/// The SDK's canonical JSON (`MessageToJson`, default options) leaves every default out; a
/// `ListTasksResponse` is written in full (section 3.1.4: `nextPageToken` always, `""` on the last
/// page), as the SDK's server writes one (`serialize_list_tasks_response`), so its own fields are
/// expected at their defaults where the canonical JSON leaves them out.
fn written_in_full(type_name: &str, mut expected: Value) -> Value {
    if type_name == "lf.a2a.v1.ListTasksResponse"
        && let Some(object) = expected.as_object_mut()
    {
        let defaults = [
            ("tasks", Value::Array(Vec::new())),
            ("nextPageToken", Value::from("")),
            ("pageSize", Value::from(0)),
            ("totalSize", Value::from(0)),
        ];
        for (key, default) in defaults {
            object.entry(key).or_insert(default);
        }
    }
    expected
}

/// The verdict on one decoder.
pub struct Report {
    /// The suite's name (`v1`, `v0_3`).
    pub suite: &'static str,
    pub decoder: &'static str,
    pub vectors: usize,
    pub passed: usize,
    /// `type case: what` for everything except number formatting, including the SDK's failures.
    pub failures: Vec<String>,
    /// `type case: what` where our JSON differs from the SDK's only in how numbers are written.
    pub number_format: Vec<String>,
    /// `type case: why` for the vectors the implementation declines by design.
    pub declined: Vec<String>,
    /// The last line of `sdk_vectors.py check`: `N passed, M failed`.
    pub sdk_check: String,
    pub binary_identical: usize,
    pub binary_vectors: usize,
    /// `type case` where our binary re-encoding is not byte for byte the SDK's: allowed by protobuf
    /// (the decoded messages are compared), listed for information.
    pub binary_not_identical: Vec<String>,
}

impl Report {
    pub fn summary(&self) -> String {
        format!(
            "interop {} ({}): {} of {} vectors passed, {} declined by design (SDK check of our output: {}; \
             number formatting only: {} vectors; our binary byte-identical with the SDK's: {} of {})",
            self.suite,
            self.decoder,
            self.passed,
            self.vectors,
            self.declined.len(),
            self.sdk_check,
            self.number_format.len(),
            self.binary_identical,
            self.binary_vectors
        )
    }

    pub fn details(&self) -> String {
        let mut text = String::new();
        let mut section = |title: &str, lines: &[String]| {
            if !lines.is_empty() {
                let _ = writeln!(text, "{} — {title} ({}):", self.decoder, lines.len());
                for line in lines {
                    let _ = writeln!(text, "  {line}");
                }
            }
        };
        section("failures", &self.failures);
        section(
            "declined by design (see the decoder's docs)",
            &self.declined,
        );
        section(
            "for information, not a failure: JSON equal to the SDK's when numbers are compared by value",
            &self.number_format,
        );
        section(
            "for information, not a failure: our binary is not byte for byte the SDK's deterministic one",
            &self.binary_not_identical,
        );
        text
    }
}

pub fn run_decoder(
    suite: &Suite,
    decoder: &Decoder,
    vectors: &[Vector],
    python: &Path,
    dir: &Path,
) -> Report {
    fs::create_dir_all(dir).unwrap();
    let mut failures: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut number_format = Vec::new();
    let mut declined = Vec::new();
    let mut general = Vec::new();

    let with_vectors: BTreeSet<&str> = vectors.iter().map(|v| v.type_name.as_str()).collect();
    for name in decoder.message_names {
        if !with_vectors.contains(name) {
            general.push(format!("{name}: no SDK vector for this message type"));
        }
    }

    let mut manifest = Vec::new();
    let (mut binary_identical, mut binary_vectors) = (0, 0);
    let mut binary_not_identical = Vec::new();
    for (index, vector) in vectors.iter().enumerate() {
        let outcome = (decoder.run)(vector);
        let key = vector.key();
        if let Some(reason) = &outcome.declined {
            declined.push(format!("{} {}: {reason}", key.0, key.1));
            manifest
                .push(json!({"type": vector.type_name, "case": vector.case, "declined": reason}));
            continue;
        }
        if let Some((json_text, binary)) = outcome.output {
            let stem = format!("{index:04}.{}.{}", vector.type_name, vector.case);
            fs::write(dir.join(format!("{stem}.json")), json_text).unwrap();
            fs::write(dir.join(format!("{stem}.binpb")), binary).unwrap();
            manifest.push(json!({
                "type": vector.type_name,
                "case": vector.case,
                "json": format!("{stem}.json"),
                "binpb": format!("{stem}.binpb"),
            }));
        }
        if let Some(identical) = outcome.binary_identical {
            binary_vectors += 1;
            binary_identical += usize::from(identical);
            if !identical {
                binary_not_identical.push(format!("{} {}", key.0, key.1));
            }
        }
        for line in &outcome.number_format {
            number_format.push(format!("{} {}: {line}", key.0, key.1));
        }
        failures.entry(key).or_default().extend(outcome.failures);
    }
    fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest).unwrap(),
    )
    .unwrap();

    // The SDK parses our output back; its failures are `FAIL <type> <case>: <what>` lines.
    let (check_succeeded, stdout) = sdk_vectors(suite, python, "check", dir);
    let sdk_check = stdout.lines().last().unwrap_or_default().to_owned();
    let counts: Vec<usize> = sdk_check
        .strip_suffix(" failed")
        .and_then(|rest| rest.split_once(" passed, "))
        .and_then(|(p, f)| Some(vec![p.parse().ok()?, f.parse().ok()?]))
        .unwrap_or_default();
    if counts.len() != 2 {
        general.push(format!(
            "sdk_vectors.py check did not end with `N passed, M failed`:\n{stdout}"
        ));
    } else if check_succeeded != (counts[1] == 0) {
        general.push(format!(
            "sdk_vectors.py check exit status disagrees with its last line `{sdk_check}`"
        ));
    }
    for line in stdout.lines().filter_map(|l| l.strip_prefix("FAIL ")) {
        let parsed = line.split_once(' ').and_then(|(type_name, rest)| {
            let (case, what) = rest.split_once(": ")?;
            Some(((type_name.to_owned(), case.to_owned()), what.to_owned()))
        });
        match parsed {
            Some((key, what)) if failures.contains_key(&key) => {
                failures
                    .get_mut(&key)
                    .unwrap()
                    .push(format!("SDK check: {what}"));
            }
            _ => general.push(format!("SDK check: {line}")),
        }
    }

    let passed = failures.values().filter(|f| f.is_empty()).count();
    let mut all_failures = general;
    for ((type_name, case), what) in &failures {
        if !what.is_empty() {
            all_failures.push(format!("{type_name} {case}: {}", what.join(" | ")));
        }
    }
    Report {
        suite: suite.name,
        decoder: decoder.name,
        vectors: vectors.len(),
        passed,
        failures: all_failures,
        number_format,
        declined,
        sdk_check,
        binary_identical,
        binary_vectors,
        binary_not_identical,
    }
}

/// Runs the whole suite: SDK vectors, every decoder, the SDK's check of our outputs; fails with the
/// details of every failure. Skips (or, under `CI=true`, fails) without the SDK's interpreter.
pub fn run_suite(suite: &Suite, decoders: &[Decoder], target_tmpdir: &Path) {
    let Some(python) = python(suite) else {
        return;
    };
    let started = Instant::now();
    let root = target_tmpdir.join(format!("interop_{}", suite.name));
    if root.exists() {
        fs::remove_dir_all(&root).unwrap();
    }
    let sdk_dir = root.join("sdk");
    let (generated, stdout) = sdk_vectors(suite, &python, "generate", &sdk_dir);
    assert!(generated, "sdk_vectors.py generate failed:\n{stdout}");
    println!("{}", stdout.trim());
    let vectors = read_vectors(&sdk_dir);
    assert!(!vectors.is_empty(), "the SDK wrote no vectors");

    let reports: Vec<Report> = decoders
        .iter()
        .map(|decoder| run_decoder(suite, decoder, &vectors, &python, &root.join(decoder.name)))
        .collect();

    let mut details = String::new();
    for report in &reports {
        println!("{}", report.summary());
        details.push_str(&report.details());
    }
    println!(
        "interop {}: {:.1}s; vectors and our outputs are in {}",
        suite.name,
        started.elapsed().as_secs_f64(),
        root.display()
    );
    if !details.is_empty() {
        fs::write(root.join("report.txt"), &details).unwrap();
    }
    let failed: Vec<String> = reports
        .iter()
        .filter(|r| r.passed + r.declined.len() != r.vectors || !r.failures.is_empty())
        .map(Report::summary)
        .collect();
    assert!(
        failed.is_empty(),
        "{}\n\n{}\n(also in {})",
        failed.join("\n"),
        truncate(&details, 20_000),
        root.join("report.txt").display()
    );
}
