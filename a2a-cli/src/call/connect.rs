//! From the shared options to a connected client: the client's configuration (`--binding`,
//! `--version`, `--header`, `--bearer`, `--timeout`), the async runtime the calls run on, and each
//! client error as the failure (and exit status) the command reports.

use std::future::Future;
use std::time::Duration;

use a2a_client::{A2aClient, Binding, ClientConfig, ClientError};
use a2a_protocol::service::ProtocolVersion;

use super::args::{AgentArgs, BindingChoice, VersionChoice};
use crate::failure::Failure;

/// The client configuration the options ask for; a malformed `--header` is a usage failure naming it.
pub fn config(args: &AgentArgs) -> Result<ClientConfig, Failure> {
    let timeout = Duration::from_secs(args.timeout);
    if timeout.is_zero() {
        return Err(Failure::usage("--timeout: must be at least 1 second"));
    }
    let mut config = ClientConfig {
        headers: headers(&args.headers)?,
        bearer_token: args.bearer.clone(),
        timeout,
        stream_idle_timeout: Some(timeout),
        ..ClientConfig::default()
    };
    if let Some(binding) = args.binding {
        config = config.only(match binding {
            BindingChoice::Jsonrpc => Binding::JsonRpc,
            BindingChoice::Rest => Binding::HttpJson,
            BindingChoice::Grpc => Binding::Grpc,
        });
    }
    if let Some(version) = args.protocol_version {
        config = config.only_version(match version {
            VersionChoice::V1_0 => ProtocolVersion::V1_0,
            VersionChoice::V0_3 => ProtocolVersion::V0_3,
        });
    }
    Ok(config)
}

/// Resolves the agent's card and connects on the interface the options choose.
pub async fn connect(args: &AgentArgs) -> Result<A2aClient, Failure> {
    check_url(&args.url)?;
    A2aClient::connect(&args.url, config(args)?)
        .await
        .map_err(failure)
}

/// The agent URL must be an absolute `http` or `https` URL.
pub fn check_url(url: &str) -> Result<(), Failure> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(host) if !host.is_empty() && !host.starts_with('/') => Ok(()),
        _ => Err(Failure::usage(format!(
            "URL: {url:?} is not an http:// or https:// URL of an agent"
        ))),
    }
}

/// `--header NAME:VALUE` values as (name, value) pairs: a name of HTTP token characters and a
/// value of visible ASCII (what both HTTP and gRPC metadata can carry).
fn headers(values: &[String]) -> Result<Vec<(String, String)>, Failure> {
    values
        .iter()
        .map(|value| {
            let bad = |why: &str| Failure::usage(format!("--header {value:?}: {why}"));
            let (name, content) = value
                .split_once(':')
                .ok_or_else(|| bad("expected NAME:VALUE"))?;
            let name = name.trim();
            let content = content.trim();
            let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
            if name.is_empty() || !name.chars().all(token) {
                return Err(bad("the name must be letters, digits or -_. and not empty"));
            }
            if !content.chars().all(|c| c == ' ' || c.is_ascii_graphic()) {
                return Err(bad("the value must be printable ASCII"));
            }
            Ok((name.to_owned(), content.to_owned()))
        })
        .collect()
}

/// Runs `future` to its end on a runtime of the current thread.
pub fn block_on<T>(future: impl Future<Output = Result<T, Failure>>) -> Result<T, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::transport(format!("cannot start the async runtime: {e}")))?
        .block_on(future)
}

/// A client error as the command's failure: an A2A error answered by the agent (3), a request the
/// agent's binding or version cannot carry (2), an untrusted card (1), anything else about reaching
/// the agent or reading its answer (4).
pub fn failure(error: ClientError) -> Failure {
    let message = error.to_string();
    match error {
        ClientError::A2a { .. } => Failure::agent(message),
        ClientError::InvalidRequest { .. }
        | ClientError::NotConvertible { .. }
        | ClientError::InvalidConfig { .. }
        | ClientError::Credentials { .. } => Failure::usage(message),
        ClientError::UntrustedCard { .. } => Failure::input(message),
        _ => Failure::transport(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_split_at_the_first_colon() {
        let parsed = headers(&["X-Api-Key: a:b".to_owned()]).unwrap();
        assert_eq!(parsed, [("X-Api-Key".to_owned(), "a:b".to_owned())]);
    }

    #[test]
    fn bad_headers_name_the_option() {
        for bad in ["no-colon", ":value", "bad name:v", "X:caf\u{e9}"] {
            let failure = headers(&[bad.to_owned()]).unwrap_err();
            assert!(
                failure.line().starts_with("--header "),
                "{}",
                failure.line()
            );
            assert_eq!(failure, Failure::usage(failure.line()));
        }
    }

    #[test]
    fn urls_must_be_http() {
        assert!(check_url("http://127.0.0.1:1").is_ok());
        assert!(check_url("https://agent.example").is_ok());
        for bad in ["127.0.0.1:8080", "ftp://x", "http://", "http:///x"] {
            assert!(check_url(bad).unwrap_err().line().starts_with("URL: "));
        }
    }
}
