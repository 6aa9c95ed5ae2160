//! Text rules of the macro: identifier words, kebab and title case, doc comments as a description,
//! media type syntax, and "did you mean" suggestions.

/// The words of an identifier: split at `_` and where a lowercase letter or digit meets an uppercase one
/// (`route_planner` and `routePlanner` are both `route`, `planner`).
pub(crate) fn words(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    for part in ident.split('_').filter(|part| !part.is_empty()) {
        let mut word = String::new();
        let mut previous: Option<char> = None;
        for c in part.chars() {
            let boundary = c.is_uppercase()
                && previous.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
            if boundary && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c);
            previous = Some(c);
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// `route_planner` -> `route-planner`.
pub(crate) fn kebab_case(ident: &str) -> String {
    words(ident)
        .iter()
        .map(|word| word.to_lowercase())
        .collect::<Vec<_>>()
        .join("-")
}

/// `route_planner` -> `Route Planner` (each word's first letter upper case, the rest as written).
pub(crate) fn title_case(ident: &str) -> String {
    words(ident)
        .iter()
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A doc comment as one description: every line trimmed, the lines of a paragraph joined with a space,
/// paragraphs (separated by blank lines) joined with `"\n\n"`, leading and trailing blank lines dropped.
///
/// `docs` holds the values of the `#[doc = "..."]` attributes in order; one value may span several
/// lines (a `/** ... */` comment).
pub(crate) fn description_from_docs(docs: &[String]) -> String {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in docs.iter().flat_map(|doc| doc.split('\n')) {
        let line = line.trim();
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs.join("\n\n")
}

/// Checks `value` is a media type: `type/subtype` (RFC 6838 names), optionally followed by
/// `; name=value` parameters (RFC 9110: a token or a quoted string as value).
/// The error is the full message for the user.
pub(crate) fn check_media_type(value: &str) -> Result<(), String> {
    media_type_problem(value).map_or(Ok(()), |reason| {
        Err(format!(
            "`{value}` is not a media type: {reason}; expected `type/subtype`, e.g. `text/plain` or `application/json`"
        ))
    })
}

fn media_type_problem(value: &str) -> Option<String> {
    if value.trim().is_empty() {
        return Some("it is empty".into());
    }
    let (essence, parameters) = match value.split_once(';') {
        Some((essence, parameters)) => (essence, Some(parameters)),
        None => (value, None),
    };
    let Some((kind, subtype)) = essence.split_once('/') else {
        return Some("it has no `/`".into());
    };
    if kind == "*" || subtype == "*" {
        return Some("a wildcard range such as `image/*` names no single media type".into());
    }
    if let Some(problem) = restricted_name_problem(kind, "type") {
        return Some(problem);
    }
    if subtype.contains('/') {
        return Some("it has more than one `/`".into());
    }
    let subtype = if parameters.is_some() {
        subtype.trim_end()
    } else {
        subtype
    };
    if let Some(problem) = restricted_name_problem(subtype, "subtype") {
        return Some(problem);
    }
    parameters.and_then(parameters_problem)
}

/// RFC 6838 `restricted-name`: a letter or digit, then up to 126 of letters, digits and `!#$&-^_.+`.
fn restricted_name_problem(name: &str, what: &str) -> Option<String> {
    let Some(first) = name.chars().next() else {
        return Some(format!("its {what} is empty"));
    };
    if !first.is_ascii_alphanumeric() {
        return Some(format!(
            "its {what} must start with a letter or digit, not `{first}`"
        ));
    }
    if name.len() > 127 {
        return Some(format!("its {what} is longer than 127 characters"));
    }
    name.chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c)))
        .map(|c| {
            let shown = if c == ' ' {
                "a space".to_string()
            } else {
                format!("`{c}`")
            };
            format!("its {what} contains {shown} (allowed: letters, digits and `!#$&-^_.+`)")
        })
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// `; name=value` pairs after the `;` that ends the subtype.
fn parameters_problem(mut rest: &str) -> Option<String> {
    loop {
        rest = rest.trim_start();
        let name_len = rest.find(|c: char| !is_token_char(c)).unwrap_or(rest.len());
        if name_len == 0 {
            return Some("a parameter after `;` must be `name=value`".into());
        }
        rest = &rest[name_len..];
        let Some(after_eq) = rest.strip_prefix('=') else {
            return Some("a parameter after `;` must be `name=value`".into());
        };
        rest = after_eq;
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut escaped = false;
            let mut end = None;
            for (index, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = Some(index);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(end) = end else {
                return Some("a quoted parameter value is not closed".into());
            };
            rest = &quoted[end + 1..];
        } else {
            let value_len = rest.find(|c: char| !is_token_char(c)).unwrap_or(rest.len());
            if value_len == 0 {
                return Some("a parameter value is empty".into());
            }
            rest = &rest[value_len..];
        }
        rest = rest.trim_start();
        if rest.is_empty() {
            return None;
        }
        match rest.strip_prefix(';') {
            Some(next) => rest = next,
            None => return Some("parameters must be separated by `;`".into()),
        }
    }
}

/// The candidate closest to `input` by edit distance, if it is close enough to be a likely typo.
pub(crate) fn closest<'a>(input: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|&candidate| (edit_distance(input, candidate), candidate))
        .filter(|&(distance, candidate)| distance <= (candidate.len() / 3).max(1))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_words() {
        assert_eq!(kebab_case("route_planner"), "route-planner");
        assert_eq!(title_case("route_planner"), "Route Planner");
        assert_eq!(kebab_case("_plan__v2_"), "plan-v2");
        assert_eq!(title_case("plan_v2"), "Plan V2");
        assert_eq!(kebab_case("lookupHTTPFast"), "lookup-httpfast");
        assert_eq!(title_case("routePlanner"), "Route Planner");
        assert_eq!(kebab_case("find3Hotels"), "find3-hotels");
    }

    #[test]
    fn doc_paragraphs() {
        let docs = [
            " Plan a route between two places.",
            "",
            " Handles driving, walking",
            "   and transit.",
            "",
            "",
        ]
        .map(String::from);
        assert_eq!(
            description_from_docs(&docs),
            "Plan a route between two places.\n\nHandles driving, walking and transit."
        );
        let block = ["\n  First line\n  second line\n\n  Next.\n  ".to_string()];
        assert_eq!(
            description_from_docs(&block),
            "First line second line\n\nNext."
        );
        assert_eq!(description_from_docs(&[]), "");
        assert_eq!(description_from_docs(&["   ".into()]), "");
    }

    #[test]
    fn media_types() {
        for good in [
            "text/plain",
            "application/json",
            "application/vnd.a2a+json",
            "image/svg+xml",
            "video/mp4",
            "text/plain; charset=utf-8",
            "text/plain;charset=\"utf-8\";format=flowed",
            "multipart/form-data; boundary=\"a;b\"",
        ] {
            assert_eq!(check_media_type(good), Ok(()), "{good}");
        }
        for (bad, reason) in [
            ("", "it is empty"),
            ("text", "it has no `/`"),
            ("/plain", "its type is empty"),
            ("text/", "its subtype is empty"),
            ("text/plain/x", "more than one `/`"),
            ("image/*", "wildcard"),
            ("te xt/plain", "its type contains a space"),
            ("text/pl@in", "its subtype contains `@`"),
            ("+text/plain", "must start with a letter or digit, not `+`"),
            ("text/plain;", "must be `name=value`"),
            ("text/plain; charset", "must be `name=value`"),
            ("text/plain; charset=", "value is empty"),
            ("text/plain; a=\"x", "not closed"),
            ("text/plain; a=b c=d", "separated by `;`"),
        ] {
            let message = check_media_type(bad).unwrap_err();
            assert!(message.contains(reason), "{bad:?}: {message}");
        }
    }

    #[test]
    fn suggestions() {
        let keys = ["id", "name", "tags", "examples", "output_modes"];
        assert_eq!(closest("tag", &keys), Some("tags"));
        assert_eq!(closest("example", &keys), Some("examples"));
        assert_eq!(closest("output_mode", &keys), Some("output_modes"));
        assert_eq!(closest("colour", &keys), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
