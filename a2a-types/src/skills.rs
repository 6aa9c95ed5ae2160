//! An agent's skills: [`check_unique_ids`], the check an agent card needs before it is published, and
//! the automatic collection of `#[a2a_skill]` functions.

#![cfg_attr(
    feature = "derive",
    doc = r#"
With the default `derive` feature, annotate each handler with [`#[a2a_skill]`](crate::a2a_skill)
and list them with [`skills!`](crate::skills!):

```
use a2a_types::{a2a_skill, skills};

/// Plan a route between two places.
///
/// Handles driving, walking and transit.
#[a2a_skill(tags("maps", "routing"), output_modes("application/html", "video/mp4"))]
async fn route_planner(from: String, to: String) -> Vec<String> {
    vec![from, to]
}

/// Draw a map of an area.
#[a2a_skill(tags("maps"), id = "route-planner")]
fn custom_map() {}

let skills = skills![route_planner, custom_map];
assert_eq!(skills[0].description, "Plan a route between two places.\n\nHandles driving, walking and transit.");
assert_eq!(skills[0].output_modes, ["application/html", "video/mp4"]);

let duplicate = a2a_types::skills::check_unique_ids(&skills).unwrap_err();
assert_eq!(duplicate.to_string(), "skill id `route-planner` is used by skills 0 and 1");
```
"#
)]
//!
//! # Automatic collection (`inventory` feature)
//!
//! With the opt-in `inventory` feature, every `#[a2a_skill]` function linked into the final binary
//! is also registered, and `skills::registered()` returns them all. Caveats:
//!
//! - Registration runs from static constructors (`.init_array` and its equivalents, through the
//!   `inventory` crate) before `main`; on targets without them, such as some embedded ones, nothing is
//!   registered.
//! - Every crate linked into the binary contributes, including libraries you depend on: the list is
//!   the binary's, not your crate's. A function is linked only if its crate is, so a library nobody
//!   calls into may be left out by the linker.
//! - The registration order is the link order, which is unspecified, so `registered()` sorts by id.
//! - Functions and methods are collected alike; `skills!` stays the way to choose
//!   the skills of one agent when a binary hosts several.

use std::fmt;

use crate::v1::AgentSkill;

/// Two skills of one agent share an id, which the A2A spec forbids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateSkillId {
    /// The shared id.
    pub id: String,
    /// The index of the first skill with it.
    pub first: usize,
    /// The index of the second one.
    pub second: usize,
}

impl fmt::Display for DuplicateSkillId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "skill id `{}` is used by skills {} and {}",
            self.id, self.first, self.second
        )
    }
}

impl std::error::Error for DuplicateSkillId {}

/// Checks that no two skills share an id; the error names the first duplicate found (the pair
/// whose second member comes earliest) and both positions in `skills`.
pub fn check_unique_ids(skills: &[AgentSkill]) -> Result<(), DuplicateSkillId> {
    match duplicate_ids(skills).into_iter().next() {
        Some(duplicate) => Err(duplicate),
        None => Ok(()),
    }
}

/// Every repeated id: one entry per skill whose id an earlier skill already has, in order, each naming
/// the first skill with that id. Empty ids are left to validation (they are missing, not repeated).
pub fn duplicate_ids(skills: &[AgentSkill]) -> Vec<DuplicateSkillId> {
    let mut first_use = std::collections::HashMap::with_capacity(skills.len());
    let mut duplicates = Vec::new();
    for (index, skill) in skills.iter().enumerate().filter(|(_, s)| !s.id.is_empty()) {
        match first_use.get(skill.id.as_str()) {
            Some(&first) => duplicates.push(DuplicateSkillId {
                id: skill.id.clone(),
                first,
                second: index,
            }),
            None => {
                first_use.insert(skill.id.as_str(), index);
            }
        }
    }
    duplicates
}

/// Every `#[a2a_skill]` function linked into the binary, sorted by id (see the module docs for the
/// caveats). Check the result with [`check_unique_ids`] like any other list.
#[cfg(feature = "inventory")]
pub fn registered() -> Vec<AgentSkill> {
    let mut skills: Vec<AgentSkill> = inventory::iter::<spec::SkillSpec>
        .into_iter()
        .map(spec::SkillSpec::to_skill)
        .collect();
    skills.sort_by(|a, b| a.id.cmp(&b.id));
    skills
}

// `SkillSpec` lives here so that outside this crate it is reachable only through `__private`.
pub(crate) mod spec {
    use crate::v1::{AgentSkill, SecurityRequirement, StringList};

    /// A skill as `#[a2a_skill]` writes it: constant data, which the automatic collection can hold in a
    /// static. Not public API: generated code reaches it as `a2a_types::__private::SkillSpec`.
    #[derive(Debug)]
    pub struct SkillSpec {
        pub id: &'static str,
        pub name: &'static str,
        pub description: &'static str,
        pub tags: &'static [&'static str],
        pub examples: &'static [&'static str],
        pub input_modes: &'static [&'static str],
        pub output_modes: &'static [&'static str],
        /// Alternatives; each lists scheme names with their scopes.
        pub security_requirements:
            &'static [&'static [(&'static str, &'static [&'static str])]],
    }

    impl SkillSpec {
        /// The skill as the protocol's message.
        // `..Default::default()` keeps this compiling when a spec bump adds a field to `AgentSkill`.
        #[allow(clippy::needless_update)]
        pub fn to_skill(&self) -> AgentSkill {
            fn strings(values: &[&str]) -> Vec<String> {
                values.iter().map(|value| value.to_string()).collect()
            }
            AgentSkill {
                id: self.id.into(),
                name: self.name.into(),
                description: self.description.into(),
                tags: strings(self.tags),
                examples: strings(self.examples),
                input_modes: strings(self.input_modes),
                output_modes: strings(self.output_modes),
                security_requirements: self
                    .security_requirements
                    .iter()
                    .map(|schemes| SecurityRequirement {
                        schemes: schemes
                            .iter()
                            .map(|(scheme, scopes)| {
                                (
                                    scheme.to_string(),
                                    StringList {
                                        list: strings(scopes),
                                        ..Default::default()
                                    },
                                )
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..AgentSkill::default()
            }
        }
    }
}

#[cfg(feature = "inventory")]
inventory::collect!(spec::SkillSpec);

/// Registers a `SkillSpec` constant for [`registered`] when the `inventory` feature is on.
#[cfg(feature = "inventory")]
#[doc(hidden)]
#[macro_export]
macro_rules! __a2a_submit_skill {
    ($spec:ident) => {
        $crate::__private::inventory::submit! { $spec }
    };
}

/// Registers nothing: the `inventory` feature is off.
#[cfg(not(feature = "inventory"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __a2a_submit_skill {
    ($spec:ident) => {};
}

#[cfg(test)]
mod tests {
    use super::spec::SkillSpec;
    use super::*;

    fn skill(id: &str) -> AgentSkill {
        AgentSkill {
            id: id.into(),
            ..AgentSkill::default()
        }
    }

    #[test]
    fn unique_ids() {
        assert_eq!(check_unique_ids(&[]), Ok(()));
        assert_eq!(check_unique_ids(&[skill("a"), skill("b")]), Ok(()));
        let error = check_unique_ids(&[skill("a"), skill("b"), skill("c"), skill("b"), skill("a")])
            .unwrap_err();
        assert_eq!(
            error,
            DuplicateSkillId {
                id: "b".into(),
                first: 1,
                second: 3
            }
        );
        assert_eq!(error.to_string(), "skill id `b` is used by skills 1 and 3");
    }

    #[test]
    fn spec_to_skill() {
        const SPEC: SkillSpec = SkillSpec {
            id: "route-planner",
            name: "Route Planner",
            description: "Plans routes.",
            tags: &["maps"],
            examples: &["from A to B"],
            input_modes: &["text/plain"],
            output_modes: &["video/mp4"],
            security_requirements: &[&[("oauth", &["read", "write"]), ("mtls", &[])], &[]],
        };
        let skill = SPEC.to_skill();
        assert_eq!(skill.id, "route-planner");
        assert_eq!(skill.name, "Route Planner");
        assert_eq!(skill.description, "Plans routes.");
        assert_eq!(skill.tags, ["maps"]);
        assert_eq!(skill.examples, ["from A to B"]);
        assert_eq!(skill.input_modes, ["text/plain"]);
        assert_eq!(skill.output_modes, ["video/mp4"]);
        assert_eq!(skill.security_requirements.len(), 2);
        let first = &skill.security_requirements[0].schemes;
        assert_eq!(first["oauth"].list, ["read", "write"]);
        assert!(first["mtls"].list.is_empty());
        assert!(skill.security_requirements[1].schemes.is_empty());
    }
}
