//! [`SkillRequirements`]: the card's per-skill security requirements (`AgentSkill.securityRequirements`)
//! enforced on the messages sent to a skill, before the agent runs.
//!
//! A2A messages do not name a skill, so the server decides which skill a message is for by one rule:
//!
//! 1. the skill whose id the message's metadata names under [`SKILL_ID_METADATA`] (`"skillId"`);
//! 2. else, when the cards list exactly one skill, that skill;
//! 3. else none: the message is checked against the agent's and the operation's requirements only,
//!    and an agent that picks a skill from a message's content checks the caller itself.
//!
//! The requirements are read from the cards the server serves (the public card's skills and the
//! extended card's, the extended card's entry winning when both list an id), so what the card says
//! and what is enforced cannot disagree. A skill with no requirements adds none. Otherwise the caller
//! must meet one of them (they are alternatives): every scheme the requirement names must have
//! verified a credential of the request ([`Caller::verified_by`]: all of them, as a requirement's
//! schemes are needed together, e.g. an API key and a client certificate; an authenticated caller
//! of a hook that names no scheme counts as verified by any), and the caller must hold every scope
//! listed. An empty
//! requirement is met by anyone, anonymous callers included.
//!
//! A caller that meets none is refused with the specification's authorization error (section 3.3.2)
//! on every binding: an anonymous caller as unauthenticated (HTTP 401, gRPC `UNAUTHENTICATED`,
//! JSON-RPC -31401), an authenticated one as forbidden (HTTP 403, gRPC `PERMISSION_DENIED`,
//! JSON-RPC -31403). The 403 carries `WWW-Authenticate: Bearer error="insufficient_scope",
//! scope="…"` only when what the closest alternative lacks is a bearer token's (a scheme of the
//! card that is HTTP `Bearer`, OAuth 2 or OpenID Connect; `scope` lists those schemes' scopes):
//! an API key or a client certificate is not an HTTP authentication scheme, so a caller lacking
//! only those gets no challenge. A message naming a skill the cards do not list is `InvalidParams`.

use std::collections::{BTreeMap, BTreeSet};

use a2a_protocol::errors::Error;
use a2a_types::v1::{AgentCard, Message, SecurityRequirement, SecurityScheme};

use super::{AccessDenied, Caller, Forbidden, Unauthenticated};
use crate::errors::invalid;

/// The key of a message's `metadata` that names the skill the message is for (its `id` on the card):
/// `"metadata": {"skillId": "book-room"}`.
pub const SKILL_ID_METADATA: &str = "skillId";

/// The security requirements of each skill the cards list.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct SkillRequirements {
    skills: BTreeMap<String, Vec<SecurityRequirement>>,
    /// The cards' schemes that take bearer tokens (HTTP `Bearer`, OAuth 2, OpenID Connect): those
    /// a `WWW-Authenticate: Bearer` challenge is for.
    bearer_schemes: BTreeSet<String>,
}

impl SkillRequirements {
    /// The skills of `card` and of the `extended` card.
    pub(crate) fn of_cards(card: &AgentCard, extended: Option<&AgentCard>) -> Self {
        let skills = card
            .skills
            .iter()
            .chain(extended.into_iter().flat_map(|extended| &extended.skills))
            .map(|skill| (skill.id.clone(), skill.security_requirements.clone()))
            .collect();
        let bearer_schemes = card
            .security_schemes
            .iter()
            .chain(
                extended
                    .into_iter()
                    .flat_map(|extended| &extended.security_schemes),
            )
            .filter(|(_, scheme)| takes_bearer_tokens(scheme))
            .map(|(name, _)| name.clone())
            .collect();
        SkillRequirements {
            skills,
            bearer_schemes,
        }
    }

    /// The schemes the skills' requirements name that `declared` does not hold: no caller can meet
    /// a requirement naming one of them.
    pub(crate) fn undeclared_schemes<'a>(
        &'a self,
        declared: &'a AgentCard,
    ) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.skills.iter().flat_map(move |(skill, requirements)| {
            requirements
                .iter()
                .flat_map(|requirement| requirement.schemes.keys())
                .filter(|scheme| !declared.security_schemes.contains_key(*scheme))
                .map(move |scheme| (skill.as_str(), scheme.as_str()))
        })
    }

    /// The skill `message` is for, by the module's rule; `InvalidParams` when it names one the cards
    /// do not list.
    pub(crate) fn skill_of(&self, message: &Message) -> Result<Option<&str>, Error> {
        let named = message
            .metadata
            .as_ref()
            .and_then(|metadata| metadata.get(SKILL_ID_METADATA));
        match named {
            Some(id) => {
                let field = format!("message.metadata.{SKILL_ID_METADATA}");
                let id = id
                    .as_str()
                    .ok_or_else(|| invalid(&field, "must be a string, a skill's id"))?;
                match self.skills.get_key_value(id) {
                    Some((id, _)) => Ok(Some(id)),
                    None => Err(invalid(
                        &field,
                        format!("this agent's card lists no skill {id:?}"),
                    )),
                }
            }
            None if self.skills.len() == 1 => Ok(self.skills.keys().next().map(String::as_str)),
            None => Ok(None),
        }
    }

    /// Whether `caller` may send `message`: the requirements of the skill it is for, when there is
    /// one. A message naming an unknown skill passes here (the operation refuses it as
    /// `InvalidParams`).
    pub(crate) fn check(&self, message: &Message, caller: &Caller) -> Result<(), AccessDenied> {
        match self.skill_of(message) {
            Ok(Some(skill)) => self.check_skill(skill, caller),
            _ => Ok(()),
        }
    }

    /// Whether `caller` meets the requirements of the skill `skill` (a skill the cards do not list
    /// has none).
    pub(crate) fn check_skill(&self, skill: &str, caller: &Caller) -> Result<(), AccessDenied> {
        let Some(requirements) = self.skills.get(skill) else {
            return Ok(());
        };
        if requirements.is_empty()
            || requirements
                .iter()
                .any(|requirement| meets(caller, requirement))
        {
            return Ok(());
        }
        let alternatives: Vec<String> = requirements.iter().map(describe).collect();
        let needs = format!(
            "the skill {skill} needs one of: {}",
            alternatives.join("; or ")
        );
        if !caller.is_authenticated() {
            return Err(Unauthenticated(needs).into());
        }
        // What is missing is told of the closest alternative: the first whose schemes all
        // verified the caller (only scopes lack), else the first.
        let closest = requirements
            .iter()
            .find(|requirement| schemes_match(caller, requirement))
            .unwrap_or(&requirements[0]);
        let message = format!(
            "{needs}; the caller (scopes: {}) meets none",
            caller_scopes(caller)
        );
        // The closest alternative's schemes the caller does not meet (not verified, or scopes
        // lacking); a `Bearer` challenge names the scopes of those that take bearer tokens, and
        // there is none when none does.
        let unmet: Vec<(&String, &Vec<String>)> = closest
            .schemes
            .iter()
            .filter(|(scheme, scopes)| {
                !caller.verified_by(scheme)
                    || !scopes
                        .list
                        .iter()
                        .all(|scope| caller.scopes.contains(scope))
            })
            .map(|(scheme, scopes)| (scheme, &scopes.list))
            .collect();
        let bearer: Vec<&(&String, &Vec<String>)> = unmet
            .iter()
            .filter(|(scheme, _)| self.bearer_schemes.contains(*scheme))
            .collect();
        let scopes_of = |schemes: &[&(&String, &Vec<String>)]| -> Vec<String> {
            schemes
                .iter()
                .flat_map(|(_, scopes)| scopes.iter().cloned())
                .collect()
        };
        if bearer.is_empty() {
            let all: Vec<&(&String, &Vec<String>)> = unmet.iter().collect();
            return Err(Forbidden::missing_credentials(message, scopes_of(&all)).into());
        }
        Err(Forbidden::missing_scopes(message, scopes_of(&bearer)).into())
    }
}

/// Whether a client meets `scheme` with `Authorization: Bearer`: HTTP authentication of the
/// `Bearer` scheme, OAuth 2, OpenID Connect.
fn takes_bearer_tokens(scheme: &SecurityScheme) -> bool {
    match scheme {
        SecurityScheme::HttpAuthSecurityScheme(http) => http.scheme.eq_ignore_ascii_case("bearer"),
        SecurityScheme::Oauth2SecurityScheme(_)
        | SecurityScheme::OpenIdConnectSecurityScheme(_) => true,
        // API keys, client certificates, and what a later spec adds: no bearer token.
        _ => false,
    }
}

/// Whether every scheme `requirement` names verified `caller`'s credential (all of them: the
/// schemes of one requirement are needed together).
fn schemes_match(caller: &Caller, requirement: &SecurityRequirement) -> bool {
    requirement
        .schemes
        .keys()
        .all(|scheme| caller.verified_by(scheme))
}

/// Whether `caller` meets `requirement`: its schemes, and every scope each lists.
fn meets(caller: &Caller, requirement: &SecurityRequirement) -> bool {
    schemes_match(caller, requirement)
        && requirement
            .schemes
            .values()
            .flat_map(|scopes| &scopes.list)
            .all(|scope| caller.scopes.contains(scope))
}

/// One requirement in words: `oidc with the scopes travel.book`, `apiKey`, `no credentials`.
fn describe(requirement: &SecurityRequirement) -> String {
    if requirement.schemes.is_empty() {
        return "no credentials".to_owned();
    }
    let schemes: Vec<String> = requirement
        .schemes
        .iter()
        .map(|(scheme, scopes)| {
            if scopes.list.is_empty() {
                scheme.clone()
            } else {
                format!("{scheme} with the scopes {}", scopes.list.join(" "))
            }
        })
        .collect();
    schemes.join(" and ")
}

fn caller_scopes(caller: &Caller) -> String {
    if caller.scopes.is_empty() {
        "none".to_owned()
    } else {
        caller
            .scopes
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{AgentSkill, Part};
    use serde_json::json;

    use super::*;

    fn skill(id: &str, requirements: Vec<SecurityRequirement>) -> AgentSkill {
        AgentSkill {
            id: id.to_owned(),
            security_requirements: requirements,
            ..Default::default()
        }
    }

    fn card(skills: Vec<AgentSkill>) -> AgentCard {
        AgentCard {
            skills,
            ..Default::default()
        }
    }

    fn message(skill: Option<&str>) -> Message {
        let mut message = Message::user("m-1", [Part::text("hello")]);
        if let Some(skill) = skill {
            message.metadata = json!({ SKILL_ID_METADATA: skill }).as_object().cloned();
        }
        message
    }

    fn booking() -> SkillRequirements {
        SkillRequirements::of_cards(
            &card(vec![
                skill("search", vec![]),
                skill(
                    "book",
                    vec![SecurityRequirement::new([("oidc", ["travel.book"])])],
                ),
            ]),
            None,
        )
    }

    #[test]
    fn a_named_skill_needs_its_scopes_through_its_scheme() {
        let skills = booking();
        let booker = Caller::authenticated("a")
            .with_scopes(["travel.book"])
            .by_scheme("oidc");
        let reader = Caller::authenticated("b")
            .with_scopes(["travel.read"])
            .by_scheme("oidc");
        let key_holder = Caller::authenticated("c")
            .with_scopes(["travel.book"])
            .by_scheme("apiKey");
        assert!(skills.check(&message(Some("book")), &booker).is_ok());
        assert!(matches!(
            skills.check(&message(Some("book")), &reader),
            Err(AccessDenied::Forbidden(f)) if f.scopes == ["travel.book"]
        ));
        assert!(matches!(
            skills.check(&message(Some("book")), &key_holder),
            Err(AccessDenied::Forbidden(_))
        ));
        assert!(matches!(
            skills.check(&message(Some("book")), &Caller::anonymous()),
            Err(AccessDenied::Unauthenticated(_))
        ));
        // No skill named among several, or one without requirements: nothing more to meet.
        assert!(skills.check(&message(None), &Caller::anonymous()).is_ok());
        assert!(
            skills
                .check(&message(Some("search")), &Caller::anonymous())
                .is_ok()
        );
    }

    #[test]
    fn a_requirement_naming_several_schemes_needs_every_one_verified() {
        let skills = SkillRequirements::of_cards(
            &card(vec![
                skill(
                    "pay",
                    vec![SecurityRequirement::new([
                        ("apiKey", Vec::<String>::new()),
                        ("mtls", Vec::new()),
                    ])],
                ),
                skill(
                    "book",
                    vec![SecurityRequirement::new([
                        ("oidc", vec!["travel.book"]),
                        ("mtls", vec![]),
                    ])],
                ),
            ]),
            None,
        );
        // Declared as a card with these three schemes does.
        let skills = SkillRequirements {
            bearer_schemes: BTreeSet::from(["oidc".to_owned()]),
            ..skills
        };
        let certificate_only = Caller::authenticated("alice").by_scheme("mtls");
        let certificate_and_key = certificate_only.clone().also_by_scheme("apiKey");
        assert!(
            skills
                .check(&message(Some("pay")), &certificate_and_key)
                .is_ok()
        );
        // Lacking an API key: no bearer token would help, so no Bearer challenge.
        assert!(matches!(
            skills.check(&message(Some("pay")), &certificate_only),
            Err(AccessDenied::Forbidden(f)) if !f.bearer
        ));
        let token_and_certificate = Caller::authenticated("alice")
            .by_scheme("oidc")
            .also_by_scheme("mtls");
        let booker = token_and_certificate.clone().with_scopes(["travel.book"]);
        assert!(skills.check(&message(Some("book")), &booker).is_ok());
        assert!(matches!(
            skills.check(&message(Some("book")), &token_and_certificate),
            Err(AccessDenied::Forbidden(f)) if f.bearer && f.scopes == ["travel.book"]
        ));
        // The token is enough, the certificate lacks: no Bearer challenge.
        let token_only = Caller::authenticated("alice")
            .by_scheme("oidc")
            .with_scopes(["travel.book"]);
        assert!(matches!(
            skills.check(&message(Some("book")), &token_only),
            Err(AccessDenied::Forbidden(f)) if !f.bearer
        ));
    }

    #[test]
    fn a_lone_skill_is_the_one_every_message_is_for() {
        let skills = SkillRequirements::of_cards(
            &card(vec![skill(
                "book",
                vec![SecurityRequirement::new([("oidc", ["travel.book"])])],
            )]),
            None,
        );
        assert_eq!(skills.skill_of(&message(None)).unwrap(), Some("book"));
        assert!(skills.check(&message(None), &Caller::anonymous()).is_err());
    }

    #[test]
    fn an_unknown_or_mistyped_skill_id_is_invalid_params() {
        let skills = booking();
        let error = skills.skill_of(&message(Some("fly"))).unwrap_err();
        assert_eq!(error.field_violations[0].field, "message.metadata.skillId");
        let mut numbered = message(None);
        numbered.metadata = json!({ SKILL_ID_METADATA: 3 }).as_object().cloned();
        assert!(skills.skill_of(&numbered).is_err());
    }

    #[test]
    fn the_extended_cards_skills_count_and_an_empty_requirement_admits_anyone() {
        let public = card(vec![skill("search", vec![])]);
        let extended = card(vec![
            skill("search", vec![]),
            skill(
                "book",
                vec![
                    SecurityRequirement::new([("oidc", ["travel.book"])]),
                    SecurityRequirement::default(),
                ],
            ),
        ]);
        let mut extended = extended;
        extended.security_schemes = [
            (
                "oidc".to_owned(),
                SecurityScheme::OpenIdConnectSecurityScheme(Default::default()),
            ),
            (
                "mtls".to_owned(),
                SecurityScheme::MtlsSecurityScheme(Default::default()),
            ),
        ]
        .into_iter()
        .collect();
        let skills = SkillRequirements::of_cards(&public, Some(&extended));
        assert_eq!(skills.bearer_schemes, BTreeSet::from(["oidc".to_owned()]));
        assert!(
            skills
                .check(&message(Some("book")), &Caller::anonymous())
                .is_ok()
        );
        let undeclared: Vec<_> = skills.undeclared_schemes(&public).collect();
        assert_eq!(undeclared, [("book", "oidc")]);
    }
}
