//! Why a server could not be built ([`BuildError`]).

/// Why [`A2aServerBuilder::try_build`](crate::A2aServerBuilder::try_build) could not build a
/// server.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The webhook client's TLS settings cannot be used
    /// ([`ServerConfig::webhook_tls`](crate::ServerConfig::webhook_tls), feature `rustls`); the
    /// error names the field.
    #[cfg(feature = "rustls")]
    WebhookTls(crate::listen::tls::TlsConfigError),
    /// The webhook client could not be built (reqwest's reason).
    WebhookClient(String),
    /// A card could not be signed (feature `signing`).
    #[cfg(feature = "signing")]
    CardNotSigned {
        /// Which card: `card` (the public one) or `extended card`.
        card: &'static str,
        /// Why, naming the field path at fault.
        error: a2a_types::signing::SignError,
    },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            #[cfg(feature = "rustls")]
            BuildError::WebhookTls(ref error) => write!(f, "ServerConfig.{error}"),
            BuildError::WebhookClient(ref reason) => {
                write!(f, "the webhook client cannot be built: {reason}")
            }
            #[cfg(feature = "signing")]
            BuildError::CardNotSigned { card, ref error } => {
                write!(f, "the {card} cannot be signed: {error}")
            }
        }
    }
}

impl std::error::Error for BuildError {}
