//! An agent whose card declares none of the optional capabilities (no streaming, no push
//! notifications, no extended card): the server crate with the conformance behaviours on JSON-RPC,
//! HTTP+JSON and gRPC, on loopback, for `a2a conformance` to check that it refuses what it does not
//! declare (section 3.3.4) and skips the checks of those capabilities. It may also demand a bearer
//! token and a required extension, each honestly or (the rule breaker) only in its card ([`Demand`]).

use std::time::Duration;

use a2a_server::auth::{BearerTokens, Security};
use a2a_server::{A2aServer, Serving};
use a2a_testkit::behaviour::{Delays, WithBehaviours};
use a2a_types::v1::{AgentCard, AgentSkill};

/// The agent, serving until dropped (the server runs on the runtime this owns).
pub struct Undeclared {
    _serving: Serving,
    _runtime: tokio::runtime::Runtime,
    pub url: String,
}

/// How the agent demands something of its callers (a bearer token, a required extension).
#[derive(Clone, Copy, PartialEq)]
pub enum Demand {
    /// Not at all: the card declares nothing.
    None,
    /// The card declares it and the server refuses requests without it.
    Enforced,
    /// The card declares it, but the server serves anyone (a broken agent).
    DeclaredOnly,
}

/// The one bearer token the protected agent knows.
pub const TOKEN: &str = "conformance-caller-token";

/// The extension the agent may require.
pub const EXTENSION: &str = "https://example.com/extensions/conformance-required/v1";

impl Undeclared {
    pub fn start() -> Self {
        Undeclared::demanding(Demand::None, Demand::None)
    }

    /// The agent demanding a bearer token (`credentials`) and an extension (`extension`).
    pub fn demanding(credentials: Demand, extension: Demand) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let (serving, url) = runtime.block_on(async {
            let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let (http_addr, grpc_addr) = (http.local_addr().unwrap(), grpc.local_addr().unwrap());
            let mut card =
                AgentCard::builder("Plain agent", "Declares no optional capability.", "1.0.0")
                    .jsonrpc(format!("http://{http_addr}/jsonrpc"))
                    .http_json(format!("http://{http_addr}/rest"))
                    .grpc(grpc_addr.to_string())
                    .default_input_modes(["text/plain"])
                    .default_output_modes(["text/plain"])
                    .skill(AgentSkill {
                        id: "answer".into(),
                        name: "Answer".into(),
                        description: "Answers, without streams or push notifications.".into(),
                        tags: vec!["conformance".into()],
                        ..Default::default()
                    })
                    .build()
                    .expect("a valid card");
            if credentials == Demand::DeclaredOnly {
                card.security_schemes.insert(
                    "bearer".into(),
                    BearerTokens::security_scheme("a token the agent never checks"),
                );
                card.security_requirements
                    .push(a2a_types::v1::SecurityRequirement::new([(
                        "bearer",
                        Vec::<String>::new(),
                    )]));
            }
            let delays = Delays {
                resubscribe: Duration::from_millis(500),
                long_running: Duration::from_millis(500),
            };
            let agent = WithBehaviours::new(Done, delays);
            if extension != Demand::None {
                card.capabilities
                    .extensions
                    .push(a2a_types::v1::AgentExtension {
                        uri: Some(EXTENSION.into()),
                        description: Some("Callers must activate it.".into()),
                        required: Some(true),
                        ..Default::default()
                    });
            }
            let mut builder = A2aServer::builder(card, agent);
            if extension == Demand::Enforced {
                let mut config = a2a_server::ServerConfig::default();
                config.required_extensions = vec![EXTENSION.into()];
                builder = builder.config(config);
            }
            if credentials == Demand::Enforced {
                let tokens = BearerTokens::new().token(TOKEN, "conformance").required();
                builder = builder.authenticator(Security::new().scheme("bearer", tokens));
            }
            let server = builder.build();
            let serving = server.serve(http, grpc).await.expect("serving");
            (serving, format!("http://{http_addr}"))
        });
        Undeclared {
            _serving: serving,
            _runtime: runtime,
            url,
        }
    }
}

/// The agent's answer to any message the behaviours do not name: completed.
struct Done;

#[a2a_server::async_trait]
impl a2a_server::AgentExecutor for Done {
    async fn execute(
        &self,
        _context: a2a_server::RequestContext,
        events: a2a_server::EventSink,
    ) -> Result<(), a2a_protocol::errors::Error> {
        Ok(events.complete_with_text("done").await?)
    }
}
