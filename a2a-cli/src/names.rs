//! The message types `--type` accepts, and suggestions for a name that is not one of them.

use a2a_types::v1::MESSAGE_NAMES;

use crate::failure::Failure;

/// The output of `a2a list-types`: every full message name, one per line.
pub fn list() -> Vec<u8> {
    let mut out = String::new();
    for name in MESSAGE_NAMES {
        out.push_str(name);
        out.push('\n');
    }
    out.into_bytes()
}

/// Checks that `name` is the full name of a message type, or explains which names come close.
pub fn check(name: &str) -> Result<(), Failure> {
    if MESSAGE_NAMES.contains(&name) {
        return Ok(());
    }
    let suggestions = suggest(name);
    let hint = match suggestions.as_slice() {
        [] => String::new(),
        [only] => format!("; did you mean `{only}`?"),
        [first @ .., last] => {
            let first: Vec<String> = first.iter().map(|name| format!("`{name}`")).collect();
            format!("; did you mean {} or `{last}`?", first.join(", "))
        }
    };
    Err(Failure::usage(format!(
        "unknown message type `{name}`{hint} (`a2a list-types` prints all)"
    )))
}

/// Up to three full names close to `wanted`: the same simple name in any case or package (`Task`,
/// `task`, `.lf.a2a.v1.Task`, `lf.a2a.v2.Task`), otherwise simple names a few edits away, otherwise
/// simple names containing it.
fn suggest(wanted: &str) -> Vec<&'static str> {
    let wanted = simple_name(wanted.trim()).to_lowercase();
    if wanted.is_empty() {
        return Vec::new();
    }
    let simple = |name: &str| simple_name(name).to_lowercase();

    let same: Vec<&str> = MESSAGE_NAMES
        .iter()
        .copied()
        .filter(|name| simple(name) == wanted)
        .collect();
    if !same.is_empty() {
        return same;
    }

    let allowed = (wanted.chars().count() / 3).max(1);
    let mut near: Vec<(usize, &str)> = MESSAGE_NAMES
        .iter()
        .map(|name| (edit_distance(&wanted, &simple(name)), *name))
        .filter(|(distance, _)| *distance <= allowed)
        .collect();
    near.sort();
    if !near.is_empty() {
        return near.into_iter().take(3).map(|(_, name)| name).collect();
    }

    if wanted.chars().count() < 4 {
        return Vec::new();
    }
    let mut containing: Vec<&str> = MESSAGE_NAMES
        .iter()
        .copied()
        .filter(|name| simple(name).contains(&wanted))
        .collect();
    containing.sort_by_key(|name| name.len());
    containing.truncate(3);
    containing
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

    #[test]
    fn every_listed_name_is_accepted() {
        for name in MESSAGE_NAMES {
            assert_eq!(check(name), Ok(()));
        }
        let listed = String::from_utf8(list()).unwrap();
        assert_eq!(listed.lines().collect::<Vec<_>>(), MESSAGE_NAMES);
    }

    #[test]
    fn simple_name_and_other_spellings_suggest_the_full_name() {
        for wanted in [
            "Task",
            "task",
            ".lf.a2a.v1.Task",
            "lf.a2a.v2.Task",
            " Task ",
        ] {
            assert_eq!(suggest(wanted), ["lf.a2a.v1.Task"], "{wanted}");
        }
    }

    #[test]
    fn typos_suggest_near_names() {
        assert_eq!(suggest("AgentCrad"), ["lf.a2a.v1.AgentCard"]);
        assert_eq!(suggest("StreamResponses"), ["lf.a2a.v1.StreamResponse"]);
    }

    #[test]
    fn fragments_suggest_names_containing_them() {
        let found = suggest("PushNotification");
        assert!(!found.is_empty() && found.len() <= 3, "{found:?}");
        assert!(found.iter().all(|name| name.contains("PushNotification")));
    }

    #[test]
    fn unrelated_names_suggest_nothing() {
        assert!(suggest("Banana").is_empty());
        assert!(suggest("").is_empty());
        let failure = check("Banana").unwrap_err();
        assert_eq!(
            failure.line(),
            "unknown message type `Banana` (`a2a list-types` prints all)"
        );
    }

    #[test]
    fn unknown_type_error_names_the_suggestion() {
        assert_eq!(
            check("Task").unwrap_err().line(),
            "unknown message type `Task`; did you mean `lf.a2a.v1.Task`? (`a2a list-types` prints all)"
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
