//! A2A service parameters and the other names a transport needs (spec section 3.2.6): the
//! `A2A-Version` and `A2A-Extensions` parameters (the one rule `A2A-Version` is read by is
//! [`ProtocolVersion::from_header`]'s), the media types, and the well-known agent card path. Values
//! only: reading headers or gRPC metadata is the transport's job.
//!
//! ```
//! use a2a_protocol::service::{Extensions, ProtocolVersion};
//!
//! // An absent A2A-Version means 0.3 (section 3.6.2); only major.minor counts (section 3.6).
//! assert_eq!(ProtocolVersion::from_header(None).unwrap(), ProtocolVersion::V0_3);
//! assert_eq!(ProtocolVersion::from_header(Some("1.0.1")).unwrap(), ProtocolVersion::V1_0);
//! let extensions = Extensions::parse(" https://a.example/ext/v1 ,https://b.example/x ");
//! assert_eq!(extensions.to_string(), "https://a.example/ext/v1,https://b.example/x");
//! ```

use std::fmt;

pub mod pep440;
mod version;

pub use version::{ProtocolVersion, VersionError};

/// The service parameter naming the protocol version the client speaks (section 3.2.6). Parameter
/// names are case-insensitive.
pub const A2A_VERSION_HEADER: &str = "A2A-Version";
/// The service parameter listing the extensions the client wants for the request (section 3.2.6).
pub const A2A_EXTENSIONS_HEADER: &str = "A2A-Extensions";

/// The media type of the HTTP+JSON binding (sections 11.1 and 14.1).
pub const MEDIA_TYPE_A2A_JSON: &str = "application/a2a+json";
/// The media type of the JSON-RPC binding's requests and responses (section 9.1).
pub const MEDIA_TYPE_JSON: &str = "application/json";
/// The media type of a streamed response, Server-Sent Events (sections 9.1 and 11.7).
pub const MEDIA_TYPE_EVENT_STREAM: &str = "text/event-stream";
/// The media type of the gRPC binding.
pub const MEDIA_TYPE_GRPC: &str = "application/grpc";

/// Where an agent publishes its public agent card (section 8.2).
pub const WELL_KNOWN_AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";

/// The `A2A-Extensions` parameter: extension URIs, in the order given, without duplicates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extensions(Vec<String>);

impl Extensions {
    /// Reads a comma-separated list, trimming whitespace around each URI and skipping empty entries.
    pub fn parse(value: &str) -> Self {
        let mut extensions = Extensions::default();
        for uri in value
            .split(',')
            .map(str::trim)
            .filter(|uri| !uri.is_empty())
        {
            extensions.insert(uri);
        }
        extensions
    }

    /// Reads every occurrence of the parameter (a transport may receive it more than once).
    pub fn parse_all<'a>(values: impl IntoIterator<Item = &'a str>) -> Self {
        let mut extensions = Extensions::default();
        for value in values {
            for uri in Extensions::parse(value).0 {
                extensions.insert(&uri);
            }
        }
        extensions
    }

    /// Adds a URI unless it is already there.
    pub fn insert(&mut self, uri: &str) {
        if !self.contains(uri) {
            self.0.push(uri.to_owned());
        }
    }

    /// Whether the URI is listed.
    pub fn contains(&self, uri: &str) -> bool {
        self.0.iter().any(|u| u == uri)
    }

    /// The URIs.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }

    /// Whether no extension is listed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<S: AsRef<str>> FromIterator<S> for Extensions {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut extensions = Extensions::default();
        for uri in iter {
            extensions.insert(uri.as_ref());
        }
        extensions
    }
}

impl fmt::Display for Extensions {
    /// The value to send: URIs joined by commas (sections 9.2 and 11.2).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(","))
    }
}

/// The URL of an agent's public card from its base URL (`https://agent.example` or with a path).
pub fn well_known_agent_card_url(base_url: &str) -> String {
    format!(
        "{}{WELL_KNOWN_AGENT_CARD_PATH}",
        base_url.trim_end_matches('/')
    )
}

/// The base URL of an agent from the URL of its well-known card; `None` if the URL is not one.
pub fn base_url_of_agent_card_url(card_url: &str) -> Option<&str> {
    card_url.strip_suffix(WELL_KNOWN_AGENT_CARD_PATH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_parse_and_format() {
        let value = "https://example.com/extensions/geolocation/v1, https://standards.org/extensions/citations/v1";
        let extensions = Extensions::parse(value);
        assert_eq!(
            extensions.iter().collect::<Vec<_>>(),
            [
                "https://example.com/extensions/geolocation/v1",
                "https://standards.org/extensions/citations/v1"
            ]
        );
        assert_eq!(extensions.to_string(), value.replace(' ', ""));
        assert_eq!(Extensions::parse(&extensions.to_string()), extensions);
        assert!(Extensions::parse(" , ,").is_empty());
        let merged = Extensions::parse_all(["urn:a, urn:b", "urn:b,urn:c"]);
        assert_eq!(merged.to_string(), "urn:a,urn:b,urn:c");
        assert!(merged.contains("urn:c"));
        let built: Extensions = ["urn:x", "urn:x", "urn:y"].into_iter().collect();
        assert_eq!(built.to_string(), "urn:x,urn:y");
    }

    #[test]
    fn well_known_card_path() {
        assert_eq!(
            well_known_agent_card_url("https://agent.example/"),
            "https://agent.example/.well-known/agent-card.json"
        );
        assert_eq!(
            base_url_of_agent_card_url("https://agent.example/a2a/.well-known/agent-card.json"),
            Some("https://agent.example/a2a")
        );
        assert_eq!(
            base_url_of_agent_card_url("https://agent.example/card.json"),
            None
        );
    }
}
