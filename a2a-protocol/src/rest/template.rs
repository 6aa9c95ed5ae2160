//! `google.api.http` path templates: parsed once per binding of the operations table, matched
//! against a request's path (ranked by how specific they are) and rendered for a client.

use std::sync::OnceLock;

use super::encoding::{decode, encode};
use super::error::RouteError;
use crate::operations::{HttpBinding, OPERATIONS, Operation};

pub(super) struct CompiledBinding {
    pub(super) operation: Operation,
    pub(super) binding: &'static HttpBinding,
    pub(super) template: Template,
}

/// Every binding of the table with its parsed template, parsed once.
pub(super) fn compiled_bindings() -> &'static [CompiledBinding] {
    static COMPILED: OnceLock<Vec<CompiledBinding>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        OPERATIONS
            .iter()
            .flat_map(|info| {
                info.http
                    .iter()
                    .map(move |binding| (info.operation, binding))
            })
            // A template this parser cannot read never matches; a unit test checks there is none.
            .filter_map(|(operation, binding)| {
                Some(CompiledBinding {
                    operation,
                    binding,
                    template: Template::parse(binding.path)?,
                })
            })
            .collect()
    })
}

/// A parsed `google.api.http` path template.
#[derive(Debug, PartialEq)]
pub(super) struct Template {
    segments: Vec<Segment>,
    pub(super) variables: Vec<Variable>,
    pub(super) verb: Option<String>,
}

#[derive(Debug, PartialEq)]
enum Segment {
    Literal(String),
    /// `*`: one segment.
    One,
    /// `**`: the rest of the path (zero or more segments); only last.
    Rest,
}

/// A `{field=...}` variable spanning `segments[first..=last]`.
#[derive(Debug, PartialEq)]
pub(super) struct Variable {
    pub(super) field: String,
    first: usize,
    last: usize,
}

impl Template {
    pub(super) fn parse(template: &str) -> Option<Template> {
        let rest = template.strip_prefix('/')?;
        // The verb is a `:` outside braces after the last `/` outside braces.
        let mut depth = 0usize;
        let mut verb_at = None;
        let mut slashes = Vec::new();
        for (at, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.checked_sub(1)?,
                '/' if depth == 0 => {
                    slashes.push(at);
                    verb_at = None;
                }
                ':' if depth == 0 => verb_at = Some(at),
                _ => {}
            }
        }
        if depth != 0 {
            return None;
        }
        let (body, verb) = match verb_at {
            Some(at) => (&rest[..at], Some(rest[at + 1..].to_owned())),
            None => (rest, None),
        };
        if verb.as_deref().is_some_and(str::is_empty) {
            return None;
        }
        let mut parts = Vec::new();
        let mut start = 0;
        for &at in slashes.iter().filter(|&&at| at < body.len()) {
            parts.push(&body[start..at]);
            start = at + 1;
        }
        parts.push(&body[start..]);

        let mut segments = Vec::new();
        let mut variables = Vec::new();
        for part in parts {
            if let Some(inner) = part.strip_prefix('{') {
                let inner = inner.strip_suffix('}')?;
                let (field, pattern) = inner.split_once('=').unwrap_or((inner, "*"));
                if field.is_empty() || field.contains(['{', '}', '/']) {
                    return None;
                }
                let first = segments.len();
                for sub in pattern.split('/') {
                    segments.push(Segment::parse(sub)?);
                }
                variables.push(Variable {
                    field: field.to_owned(),
                    first,
                    last: segments.len() - 1,
                });
            } else {
                segments.push(Segment::parse(part)?);
            }
        }
        let rest_at = segments.iter().position(|s| *s == Segment::Rest);
        if rest_at.is_some_and(|at| at + 1 != segments.len()) {
            return None;
        }
        Some(Template {
            segments,
            variables,
            verb,
        })
    }

    /// The path variables when `path` matches (`None` when it does not); a variable that does not
    /// decode is an error naming its field.
    pub(super) fn matches(
        &'static self,
        path: &str,
    ) -> Result<Option<Vec<(&'static str, String)>>, RouteError> {
        let Some(rest) = path.strip_prefix('/') else {
            return Ok(None);
        };
        let rest = match &self.verb {
            Some(verb) => match rest
                .strip_suffix(verb.as_str())
                .and_then(|r| r.strip_suffix(':'))
            {
                Some(rest) => rest,
                None => return Ok(None),
            },
            None => rest,
        };
        let raw: Vec<&str> = rest.split('/').collect();
        let has_rest = self.segments.last() == Some(&Segment::Rest);
        let fixed = self.segments.len() - usize::from(has_rest);
        if raw.len() < fixed || (!has_rest && raw.len() != fixed) {
            return Ok(None);
        }
        for (segment, raw) in self.segments.iter().zip(&raw) {
            let fits = match segment {
                Segment::Literal(literal) => decode(raw, false).is_some_and(|d| d == *literal),
                Segment::One => !raw.is_empty(),
                Segment::Rest => true,
            };
            if !fits {
                return Ok(None);
            }
        }
        let mut variables = Vec::new();
        for variable in &self.variables {
            let end = if self.segments[variable.last] == Segment::Rest {
                raw.len()
            } else {
                variable.last + 1
            };
            let text = raw[variable.first..end].join("/");
            let multi = end - variable.first > 1 || self.segments[variable.last] == Segment::Rest;
            let value = decode(&text, multi).ok_or_else(|| {
                RouteError::field(
                    &variable.field,
                    format!("{text:?} is not a percent-encoded UTF-8 path segment"),
                )
            })?;
            variables.push((variable.field.as_str(), value));
        }
        Ok(Some(variables))
    }

    /// How specific the template is: a verb first, then per segment literal > `*` > `**`, left to
    /// right.
    pub(super) fn rank(&self) -> (bool, Vec<u8>) {
        let segments = self
            .segments
            .iter()
            .map(|segment| match segment {
                Segment::Literal(_) => 2,
                Segment::One => 1,
                Segment::Rest => 0,
            })
            .collect();
        (self.verb.is_some(), segments)
    }

    /// The path with each variable's value (in template order) in place of its segments.
    pub(super) fn render(&self, values: &[String]) -> String {
        let mut path = String::new();
        let mut at = 0;
        while at < self.segments.len() {
            path.push('/');
            match self.variables.iter().position(|v| v.first == at) {
                Some(index) => {
                    let variable = &self.variables[index];
                    let multi = variable.last > variable.first
                        || self.segments[variable.last] == Segment::Rest;
                    path.push_str(&encode(&values[index], multi));
                    at = variable.last + 1;
                }
                None => {
                    match &self.segments[at] {
                        Segment::Literal(literal) => path.push_str(literal),
                        Segment::One => path.push('*'),
                        Segment::Rest => path.push_str("**"),
                    }
                    at += 1;
                }
            }
        }
        if let Some(verb) = &self.verb {
            path.push(':');
            path.push_str(verb);
        }
        path
    }
}

impl Segment {
    fn parse(text: &str) -> Option<Segment> {
        match text {
            "" => None,
            "*" => Some(Segment::One),
            "**" => Some(Segment::Rest),
            literal if !literal.contains(['{', '}', '=', '*']) => {
                Some(Segment::Literal(literal.to_owned()))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_of_the_table_parses() {
        let total: usize = OPERATIONS.iter().map(|info| info.http.len()).sum();
        assert_eq!(compiled_bindings().len(), total);
        for compiled in compiled_bindings() {
            let fields: Vec<&str> = compiled
                .template
                .variables
                .iter()
                .map(|v| v.field.as_str())
                .collect();
            assert_eq!(
                fields,
                compiled.binding.path_fields(),
                "{}",
                compiled.binding.path
            );
        }
    }

    #[test]
    fn templates_parse_as_google_api_http_reads_them() {
        let template = Template::parse("/v1/{name=projects/*/docs/**}:get").unwrap();
        assert_eq!(template.verb.as_deref(), Some("get"));
        assert_eq!(
            template.segments,
            [
                Segment::Literal("v1".into()),
                Segment::Literal("projects".into()),
                Segment::One,
                Segment::Literal("docs".into()),
                Segment::Rest
            ]
        );
        assert_eq!(
            template.variables,
            [Variable {
                field: "name".into(),
                first: 1,
                last: 4
            }]
        );
        for broken in [
            "tasks",
            "/tasks/{id",
            "/a/**/b",
            "/tasks/{id}:",
            "/{=*}",
            "/a//b",
        ] {
            assert_eq!(Template::parse(broken), None, "{broken}");
        }
    }

    #[test]
    fn multi_segment_variables_match_and_keep_encoded_slashes() {
        let template: &'static Template = Box::leak(Box::new(
            Template::parse("/v1/{name=projects/*/docs/**}:get").unwrap(),
        ));
        let vars = template
            .matches("/v1/projects/p%201/docs/a/b%2Fc:get")
            .unwrap()
            .unwrap();
        assert_eq!(vars, [("name", "projects/p 1/docs/a/b%2Fc".to_owned())]);
        assert_eq!(
            template.matches("/v1/projects/p/docs:get").unwrap(),
            Some(vec![("name", "projects/p/docs".to_owned())])
        );
        assert_eq!(
            template.matches("/v1/projects/p/other/x:get").unwrap(),
            None
        );
        assert_eq!(template.matches("/v1/projects/p/docs/x").unwrap(), None);
        assert_eq!(
            template.render(&["projects/p 1/docs/a/b".to_owned()]),
            "/v1/projects/p%201/docs/a/b:get"
        );
    }
}
