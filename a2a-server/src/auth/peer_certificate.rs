//! [`PeerCertificate`]: the certificate a client presented in its TLS handshake and the server
//! verified (mutual TLS), which the listener of
//! [`A2aServer::serve_tls`](crate::A2aServer::serve_tls) puts into every request's extensions, so
//! that an [`Authenticator`](super::Authenticator) can name the caller from it
//! ([`AuthRequest::peer_certificate`](super::AuthRequest::peer_certificate)).

use std::fmt;
use std::sync::Arc;

/// The end-entity certificate (DER) a client presented and the TLS listener verified against the
/// roots of [`TlsIdentity::require_client_certificates`](crate::tls::TlsIdentity::require_client_certificates).
/// Present in a request's extensions only when the connection carried one.
#[derive(Clone, PartialEq, Eq)]
pub struct PeerCertificate {
    der: Arc<[u8]>,
}

impl PeerCertificate {
    /// A verified certificate's DER. Only a listener that verified it should make one: an
    /// authenticator trusts what it says.
    pub fn from_der(der: impl Into<Arc<[u8]>>) -> Self {
        PeerCertificate { der: der.into() }
    }

    /// The certificate, DER-encoded.
    pub fn der(&self) -> &[u8] {
        &self.der
    }
}

/// The bytes are not worth a log line; their length says enough.
impl fmt::Debug for PeerCertificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PeerCertificate")
            .field("der_len", &self.der.len())
            .finish()
    }
}
