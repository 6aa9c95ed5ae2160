//! The type names each command's `--type` accepts, and suggestions for a name that is not one of them.

use crate::cli::TypesFor;
use crate::failure::Failure;

/// The names `--type` accepts for `command`: for `transcode`, the full names of the A2A v1 messages
/// (`lf.a2a.v1`) and then of the v0.3 protobuf messages (`a2a.v1`); for `upgrade`, the v0.3 JSON
/// Schema types the bridge converts; for `downgrade`, the v1 messages it converts.
pub fn accepted(command: TypesFor) -> Vec<&'static str> {
    match command {
        TypesFor::Transcode => a2a_types::v1::MESSAGE_NAMES
            .iter()
            .chain(a2a_proto::v0_3::MESSAGE_NAMES)
            .copied()
            .collect(),
        TypesFor::Upgrade => a2a_compat::bridge::UPGRADES
            .iter()
            .map(|(schema_type, _)| *schema_type)
            .collect(),
        TypesFor::Downgrade => a2a_compat::bridge::DOWNGRADES
            .iter()
            .map(|(v1_name, _)| *v1_name)
            .collect(),
    }
}

/// The output of `a2a list-types`: every accepted name, one per line.
pub fn list(command: TypesFor) -> Vec<u8> {
    let mut out = String::new();
    for name in accepted(command) {
        out.push_str(name);
        out.push('\n');
    }
    out.into_bytes()
}

/// Checks that `name` is accepted by `command`, or explains which names come close.
pub fn check(name: &str, command: TypesFor) -> Result<(), Failure> {
    let names = accepted(command);
    if names.contains(&name) {
        return Ok(());
    }
    let suggestions = suggest(name, &names);
    let hint = match suggestions.as_slice() {
        [] => String::new(),
        [only] => format!("; did you mean `{only}`?"),
        [first @ .., last] => {
            let first: Vec<String> = first.iter().map(|name| format!("`{name}`")).collect();
            format!("; did you mean {} or `{last}`?", first.join(", "))
        }
    };
    let (what, list) = match command {
        TypesFor::Transcode => ("message type", "a2a list-types"),
        TypesFor::Upgrade => ("v0.3 type for upgrade", "a2a list-types --for upgrade"),
        TypesFor::Downgrade => (
            "v1 message type for downgrade",
            "a2a list-types --for downgrade",
        ),
    };
    Err(Failure::usage(format!(
        "unknown {what} `{name}`{hint} (`{list}` prints all)"
    )))
}

/// Up to three of `names` close to `wanted`: the same simple name in any case or package (`Task`,
/// `task`, `lf.a2a.v2.Task`; several when packages share it), otherwise simple names a few edits away,
/// otherwise simple names containing it. Where `wanted` names a package that has candidates
/// (`lf.a2a.v1.AgentCrad`), only that package's are given.
fn suggest(wanted: &str, names: &[&'static str]) -> Vec<&'static str> {
    let full = wanted.trim().trim_start_matches('.');
    let package = full.rsplit_once('.').map(|(package, _)| package);
    let wanted = simple_name(full).to_lowercase();
    if wanted.is_empty() {
        return Vec::new();
    }
    let simple = |name: &str| simple_name(name).to_lowercase();
    let prefer_package = |mut found: Vec<&'static str>| {
        let in_package = |name: &&str| {
            package.is_some_and(|p| name.rsplit_once('.').is_some_and(|(q, _)| q == p))
        };
        if found.iter().any(in_package) {
            found.retain(in_package);
        }
        found.truncate(3);
        found
    };

    let same: Vec<&str> = names
        .iter()
        .copied()
        .filter(|name| simple(name) == wanted)
        .collect();
    if !same.is_empty() {
        return prefer_package(same);
    }

    let allowed = (wanted.chars().count() / 3).max(1);
    let mut near: Vec<(usize, &str)> = names
        .iter()
        .map(|name| (edit_distance(&wanted, &simple(name)), *name))
        .filter(|(distance, _)| *distance <= allowed)
        .collect();
    near.sort();
    if !near.is_empty() {
        return prefer_package(near.into_iter().map(|(_, name)| name).collect());
    }

    if wanted.chars().count() < 4 {
        return Vec::new();
    }
    let mut containing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|name| simple(name).contains(&wanted))
        .collect();
    containing.sort_by_key(|name| name.len());
    prefer_package(containing)
}

/// The part after the last dot: `Task` for `lf.a2a.v1.Task`.
fn simple_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcode_names() -> Vec<&'static str> {
        accepted(TypesFor::Transcode)
    }

    #[test]
    fn every_listed_name_is_accepted() {
        for command in [TypesFor::Transcode, TypesFor::Upgrade, TypesFor::Downgrade] {
            let names = accepted(command);
            assert!(!names.is_empty());
            for name in &names {
                assert_eq!(check(name, command), Ok(()));
            }
            let listed = String::from_utf8(list(command)).unwrap();
            assert_eq!(listed.lines().collect::<Vec<_>>(), names);
        }
        let names = transcode_names();
        assert!(names.contains(&"lf.a2a.v1.Task") && names.contains(&"a2a.v1.Task"));
    }

    #[test]
    fn simple_name_and_other_spellings_suggest_the_full_names() {
        for wanted in ["Task", "task", "lf.a2a.v2.Task", " Task "] {
            assert_eq!(
                suggest(wanted, &transcode_names()),
                ["lf.a2a.v1.Task", "a2a.v1.Task"],
                "{wanted}"
            );
        }
        assert_eq!(
            suggest(".lf.a2a.v1.Task", &transcode_names()),
            ["lf.a2a.v1.Task"]
        );
        assert_eq!(suggest("a2a.v1.task", &transcode_names()), ["a2a.v1.Task"]);
        assert_eq!(
            suggest("lf.a2a.v1.AgentCrad", &transcode_names()),
            ["lf.a2a.v1.AgentCard"]
        );
        assert_eq!(
            suggest("AuthenticationInfo", &transcode_names()),
            ["lf.a2a.v1.AuthenticationInfo", "a2a.v1.AuthenticationInfo"]
        );
    }

    #[test]
    fn typos_suggest_near_names() {
        assert_eq!(
            suggest("AgentCrad", &transcode_names()),
            ["a2a.v1.AgentCard", "lf.a2a.v1.AgentCard"]
        );
        assert_eq!(
            suggest("StreamResponses", &transcode_names()),
            ["a2a.v1.StreamResponse", "lf.a2a.v1.StreamResponse"]
        );
        assert_eq!(
            suggest("MesageSendParams", &accepted(TypesFor::Upgrade)),
            ["MessageSendParams"]
        );
    }

    #[test]
    fn fragments_suggest_names_containing_them() {
        let found = suggest("PushNotification", &transcode_names());
        assert!(!found.is_empty() && found.len() <= 3, "{found:?}");
        assert!(found.iter().all(|name| name.contains("PushNotification")));
    }

    #[test]
    fn unrelated_names_suggest_nothing() {
        assert!(suggest("Banana", &transcode_names()).is_empty());
        assert!(suggest("", &transcode_names()).is_empty());
        let failure = check("Banana", TypesFor::Transcode).unwrap_err();
        assert_eq!(
            failure.line(),
            "unknown message type `Banana` (`a2a list-types` prints all)"
        );
    }

    #[test]
    fn unknown_type_error_names_the_suggestion() {
        assert_eq!(
            check("Task", TypesFor::Transcode).unwrap_err().line(),
            "unknown message type `Task`; did you mean `lf.a2a.v1.Task` or `a2a.v1.Task`? (`a2a list-types` prints all)"
        );
        assert_eq!(
            check("task", TypesFor::Downgrade).unwrap_err().line(),
            "unknown v1 message type for downgrade `task`; did you mean `lf.a2a.v1.Task`? (`a2a list-types --for downgrade` prints all)"
        );
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("task", "task"), 0);
        assert_eq!(edit_distance("tsk", "task"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
