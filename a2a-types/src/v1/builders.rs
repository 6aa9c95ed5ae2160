//! Constructors and builders for the messages people write by hand: an [`AgentCard`] builder whose
//! `build()` returns every problem instead of an invalid card, and short constructors for parts,
//! messages, artifacts and tasks.
//!
//! ```
//! use a2a_types::v1::{AgentCard, AgentSkill, Message, Part};
//!
//! let card = AgentCard::builder("Wayfarer", "Plans and books trips.", "1.4.0")
//!     .jsonrpc("https://agents.example.com/a2a")
//!     .streaming(true)
//!     .default_input_modes(["text/plain"])
//!     .default_output_modes(["text/plain", "application/json"])
//!     .skill(AgentSkill {
//!         id: "book-hotel".into(),
//!         name: "Book a hotel".into(),
//!         description: "Finds and books rooms.".into(),
//!         tags: vec!["travel".into()],
//!         ..Default::default()
//!     })
//!     .build()
//!     .expect("a valid card");
//! assert_eq!(card.supported_interfaces[0].protocol_binding, "JSONRPC");
//!
//! let message = Message::user("m-1", [Part::text("Two nights in Lisbon, please")]);
//! assert_eq!(serde_json::to_value(&message).unwrap()["role"], "ROLE_USER");
//! ```

// Every literal of a generated v1 struct ends in `..Default::default()`, so fields a later spec
// adds leave this code compiling; today that update is often empty.
#![allow(clippy::needless_update)]

use std::collections::BTreeMap;
use std::time::SystemTime;

use crate::JsonObject;
use crate::v1::{
    AgentCapabilities, AgentCard, AgentExtension, AgentInterface, AgentProvider, AgentSkill,
    Artifact, Message, Part, PartContent, Role, SecurityRequirement, SecurityScheme, StringList,
    Task, TaskState, TaskStatus,
};
use crate::validate::{FieldViolation, Validate, Violations};

/// The protocol bindings A2A v1 defines, as `AgentInterface.protocol_binding` spells them.
pub mod binding {
    /// JSON-RPC 2.0 over HTTP.
    pub const JSONRPC: &str = "JSONRPC";
    /// gRPC.
    pub const GRPC: &str = "GRPC";
    /// REST-style HTTP with JSON bodies.
    pub const HTTP_JSON: &str = "HTTP+JSON";
}

/// The protocol version these types implement, for `AgentInterface.protocol_version`.
pub const PROTOCOL_VERSION: &str = "1.0";

impl AgentCard {
    /// Starts a card with its three REQUIRED descriptive fields.
    pub fn builder(
        name: impl Into<String>,
        description: impl Into<String>,
        version: impl Into<String>,
    ) -> AgentCardBuilder {
        AgentCardBuilder {
            card: AgentCard {
                name: name.into(),
                description: description.into(),
                version: version.into(),
                ..Default::default()
            },
        }
    }
}

/// Builds an [`AgentCard`]; see [`AgentCard::builder`].
#[derive(Clone, Debug)]
#[must_use = "call `build()` to get the card"]
pub struct AgentCardBuilder {
    card: AgentCard,
}

impl AgentCardBuilder {
    /// Adds an endpoint: its URL, protocol binding (see [`binding`]) and protocol version.
    pub fn interface(
        mut self,
        url: impl Into<String>,
        protocol_binding: impl Into<String>,
        protocol_version: impl Into<String>,
    ) -> Self {
        self.card.supported_interfaces.push(AgentInterface::new(
            url,
            protocol_binding,
            protocol_version,
        ));
        self
    }

    /// Adds a JSON-RPC endpoint speaking this protocol version.
    pub fn jsonrpc(self, url: impl Into<String>) -> Self {
        self.interface(url, binding::JSONRPC, PROTOCOL_VERSION)
    }

    /// Adds a JSON-RPC endpoint speaking A2A v0.3 (protocol version `0.3`), for the many clients that
    /// have not moved to v1. A card needs one for its v0.3 form: `a2a_compat::bridge::ToV0_3Card::to_v0_3` gives
    /// the card such clients fetch.
    pub fn jsonrpc_v0_3(self, url: impl Into<String>) -> Self {
        self.interface(url, binding::JSONRPC, "0.3")
    }

    /// Adds an HTTP+JSON endpoint speaking A2A v0.3 (its routes start with `/v1/` under `url`); see
    /// [`jsonrpc_v0_3`](Self::jsonrpc_v0_3).
    pub fn http_json_v0_3(self, url: impl Into<String>) -> Self {
        self.interface(url, binding::HTTP_JSON, "0.3")
    }

    /// Adds a gRPC endpoint speaking A2A v0.3 (service `a2a.v1.A2AService`); see
    /// [`jsonrpc_v0_3`](Self::jsonrpc_v0_3).
    pub fn grpc_v0_3(self, url: impl Into<String>) -> Self {
        self.interface(url, binding::GRPC, "0.3")
    }

    /// Adds a gRPC endpoint speaking this protocol version.
    pub fn grpc(self, url: impl Into<String>) -> Self {
        self.interface(url, binding::GRPC, PROTOCOL_VERSION)
    }

    /// Adds an HTTP+JSON endpoint speaking this protocol version.
    pub fn http_json(self, url: impl Into<String>) -> Self {
        self.interface(url, binding::HTTP_JSON, PROTOCOL_VERSION)
    }

    /// Adds one skill.
    pub fn skill(mut self, skill: AgentSkill) -> Self {
        self.card.skills.push(skill);
        self
    }

    /// Adds skills, e.g. those `a2a_types::skills![...]` collects from annotated functions.
    pub fn skills(mut self, skills: impl IntoIterator<Item = AgentSkill>) -> Self {
        self.card.skills.extend(skills);
        self
    }

    /// Declares whether the agent streams (SendStreamingMessage, SubscribeToTask).
    pub fn streaming(mut self, supported: bool) -> Self {
        self.card.capabilities.streaming = Some(supported);
        self
    }

    /// Declares whether the agent sends push notifications.
    pub fn push_notifications(mut self, supported: bool) -> Self {
        self.card.capabilities.push_notifications = Some(supported);
        self
    }

    /// Declares whether an extended card is available to authenticated clients.
    pub fn extended_agent_card(mut self, supported: bool) -> Self {
        self.card.capabilities.extended_agent_card = Some(supported);
        self
    }

    /// Declares a protocol extension the agent supports.
    pub fn extension(mut self, extension: AgentExtension) -> Self {
        self.card.capabilities.extensions.push(extension);
        self
    }

    /// Replaces all capabilities at once.
    pub fn capabilities(mut self, capabilities: AgentCapabilities) -> Self {
        self.card.capabilities = capabilities;
        self
    }

    /// The organization behind the agent.
    pub fn provider(mut self, organization: impl Into<String>, url: impl Into<String>) -> Self {
        self.card.provider = Some(AgentProvider {
            organization: organization.into(),
            url: url.into(),
            ..Default::default()
        });
        self
    }

    /// Media types the agent accepts unless a skill says otherwise (REQUIRED: at least one).
    pub fn default_input_modes<S: Into<String>>(
        mut self,
        modes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.card.default_input_modes = modes.into_iter().map(Into::into).collect();
        self
    }

    /// Media types the agent produces unless a skill says otherwise (REQUIRED: at least one).
    pub fn default_output_modes<S: Into<String>>(
        mut self,
        modes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.card.default_output_modes = modes.into_iter().map(Into::into).collect();
        self
    }

    /// Declares an authentication scheme under `name`, for security requirements to refer to.
    pub fn security_scheme(mut self, name: impl Into<String>, scheme: SecurityScheme) -> Self {
        self.card.security_schemes.insert(name.into(), scheme);
        self
    }

    /// Adds one way for clients to authenticate: every named scheme, with its scopes, must be satisfied.
    pub fn security_requirement<N: Into<String>, S: Into<String>, I: IntoIterator<Item = S>>(
        mut self,
        schemes: impl IntoIterator<Item = (N, I)>,
    ) -> Self {
        self.card
            .security_requirements
            .push(SecurityRequirement::new(schemes));
        self
    }

    /// A link to the agent's documentation.
    pub fn documentation_url(mut self, url: impl Into<String>) -> Self {
        self.card.documentation_url = Some(url.into());
        self
    }

    /// A link to the agent's icon.
    pub fn icon_url(mut self, url: impl Into<String>) -> Self {
        self.card.icon_url = Some(url.into());
        self
    }

    /// The card, or every problem with it: the spec's REQUIRED fields (see [`Validate`]), skill ids used
    /// twice, and security requirements naming a scheme the card does not declare.
    pub fn build(self) -> Result<AgentCard, Violations> {
        self.card.check()?;
        Ok(self.card)
    }
}

impl AgentCard {
    /// Checks a card by the builder's rules ([`AgentCardBuilder::build`]), for a card read from JSON:
    /// the spec's REQUIRED fields, skill ids used twice, and security requirements naming a scheme
    /// the card does not declare; every problem at once.
    pub fn check(&self) -> Result<(), Violations> {
        let mut problems = match self.validate() {
            Ok(()) => Vec::new(),
            Err(violations) => violations.into_vec(),
        };
        problems.extend(duplicate_skill_ids(&self.skills));
        let declared = &self.security_schemes;
        problems.extend(undeclared_schemes(
            "security_requirements",
            &self.security_requirements,
            declared,
        ));
        for (index, skill) in self.skills.iter().enumerate() {
            let prefix = format!("skills[{index}].security_requirements");
            problems.extend(undeclared_schemes(
                &prefix,
                &skill.security_requirements,
                declared,
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Violations::from(problems))
        }
    }
}

fn duplicate_skill_ids(skills: &[AgentSkill]) -> Vec<FieldViolation> {
    crate::skills::duplicate_ids(skills)
        .into_iter()
        .map(|duplicate| FieldViolation {
            field: format!("skills[{}].id", duplicate.second),
            description: format!(
                "Skill id `{}` is already used by skills[{}].",
                duplicate.id, duplicate.first
            ),
        })
        .collect()
}

fn undeclared_schemes(
    prefix: &str,
    requirements: &[SecurityRequirement],
    declared: &BTreeMap<String, SecurityScheme>,
) -> Vec<FieldViolation> {
    let mut problems = Vec::new();
    for (index, requirement) in requirements.iter().enumerate() {
        for name in requirement
            .schemes
            .keys()
            .filter(|name| !declared.contains_key(*name))
        {
            problems.push(FieldViolation {
                field: format!("{prefix}[{index}].schemes[{name}]"),
                description: format!(
                    "No security scheme named `{name}` is declared in security_schemes."
                ),
            });
        }
    }
    problems
}

impl AgentInterface {
    /// An endpoint: URL, protocol binding (see [`binding`]) and protocol version.
    pub fn new(
        url: impl Into<String>,
        protocol_binding: impl Into<String>,
        protocol_version: impl Into<String>,
    ) -> Self {
        Self {
            url: url.into(),
            protocol_binding: protocol_binding.into(),
            protocol_version: protocol_version.into(),
            ..Default::default()
        }
    }
}

impl SecurityRequirement {
    /// A requirement on the named schemes, each with its scopes (an empty list: no particular scope).
    pub fn new<N: Into<String>, S: Into<String>, I: IntoIterator<Item = S>>(
        schemes: impl IntoIterator<Item = (N, I)>,
    ) -> Self {
        Self {
            schemes: schemes
                .into_iter()
                .map(|(name, scopes)| {
                    let list = scopes.into_iter().map(Into::into).collect();
                    (
                        name.into(),
                        StringList {
                            list,
                            ..Default::default()
                        },
                    )
                })
                .collect(),
            ..Default::default()
        }
    }
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Self::with_content(PartContent::Text(text.into()))
    }

    /// A part holding file bytes of the given media type.
    pub fn raw(bytes: impl Into<Vec<u8>>, media_type: impl Into<String>) -> Self {
        Self::with_content(PartContent::Raw(bytes.into())).media_type(media_type)
    }

    /// A part pointing at file contents by URL.
    pub fn url(url: impl Into<String>) -> Self {
        Self::with_content(PartContent::Url(url.into()))
    }

    /// A part holding structured data (any JSON value).
    pub fn data(data: impl Into<serde_json::Value>) -> Self {
        Self::with_content(PartContent::Data(data.into()))
    }

    fn with_content(content: PartContent) -> Self {
        Self {
            content: Some(content),
            ..Default::default()
        }
    }

    /// Sets the media type, e.g. `image/png`.
    pub fn media_type(mut self, media_type: impl Into<String>) -> Self {
        self.media_type = Some(media_type.into());
        self
    }

    /// Sets the suggested file name.
    pub fn filename(mut self, filename: impl Into<String>) -> Self {
        self.filename = Some(filename.into());
        self
    }

    /// Sets the metadata.
    pub fn metadata(mut self, metadata: JsonObject) -> Self {
        self.metadata = Some(metadata);
        self
    }
}

impl Message {
    /// A message from the user (the client side).
    pub fn user(message_id: impl Into<String>, parts: impl IntoIterator<Item = Part>) -> Self {
        Self::new(Role::User, message_id, parts)
    }

    /// A message with the agent role (`ROLE_AGENT`).
    pub fn agent(message_id: impl Into<String>, parts: impl IntoIterator<Item = Part>) -> Self {
        Self::new(Role::Agent, message_id, parts)
    }

    fn new(
        role: Role,
        message_id: impl Into<String>,
        parts: impl IntoIterator<Item = Part>,
    ) -> Self {
        Self {
            message_id: message_id.into(),
            role,
            parts: parts.into_iter().collect(),
            ..Default::default()
        }
    }

    /// Places the message in a conversation.
    pub fn context_id(mut self, context_id: impl Into<String>) -> Self {
        self.context_id = Some(context_id.into());
        self
    }

    /// Ties the message to a task.
    pub fn task_id(mut self, task_id: impl Into<String>) -> Self {
        self.task_id = Some(task_id.into());
        self
    }
}

impl Artifact {
    /// An artifact with its id and parts.
    pub fn new(artifact_id: impl Into<String>, parts: impl IntoIterator<Item = Part>) -> Self {
        Self {
            artifact_id: artifact_id.into(),
            parts: parts.into_iter().collect(),
            ..Default::default()
        }
    }

    /// Names the artifact.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

impl TaskStatus {
    /// A status in `state`, stamped with the current time.
    pub fn now(state: TaskState) -> Self {
        Self {
            state,
            timestamp: Some(SystemTime::now().into()),
            ..Default::default()
        }
    }

    /// Attaches a message explaining the status.
    pub fn message(mut self, message: Message) -> Self {
        self.message = Some(message);
        self
    }
}

impl Task {
    /// A task with its id, conversation and status.
    pub fn new(id: impl Into<String>, context_id: impl Into<String>, status: TaskStatus) -> Self {
        Self {
            id: id.into(),
            context_id: Some(context_id.into()),
            status,
            ..Default::default()
        }
    }

    /// Adds an artifact the task produced.
    pub fn artifact(mut self, artifact: Artifact) -> Self {
        self.artifacts.push(artifact);
        self
    }
}
