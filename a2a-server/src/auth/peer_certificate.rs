//! [`PeerCertificate`]: the certificate a client presented in its TLS handshake and the server
//! verified (mutual TLS), which the listener of
//! [`A2aServer::serve_tls`](crate::A2aServer::serve_tls) puts into every request's extensions, so
//! that an [`Authenticator`](super::Authenticator) can name the caller from it
//! ([`AuthRequest::peer_certificate`](super::AuthRequest::peer_certificate)). A gRPC service served by
//! tonic's own TLS server (`ServerTlsConfig` with `client_ca_root`, the routes of
//! [`A2aServer::grpc_routes`](crate::A2aServer::grpc_routes)) gets it from tonic's connection info
//! instead (feature `rustls`).

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

    /// The verified client certificate of a request, from its extensions: the one this crate's TLS
    /// listener put there, else (feature `rustls`) the end-entity certificate of tonic's
    /// `TlsConnectInfo`, which tonic's TLS server puts there and has verified against its
    /// `client_ca_root` (it sets the connection info only for a certificate its verifier accepted).
    pub(crate) fn of_extensions(extensions: &axum::http::Extensions) -> Option<PeerCertificate> {
        if let Some(certificate) = extensions.get::<PeerCertificate>() {
            return Some(certificate.clone());
        }
        #[cfg(feature = "rustls")]
        {
            use tonic::transport::server::{TcpConnectInfo, TlsConnectInfo};
            let chain = extensions
                .get::<TlsConnectInfo<TcpConnectInfo>>()?
                .peer_certs()?;
            chain
                .first()
                .map(|end_entity| PeerCertificate::from_der(end_entity.as_ref()))
        }
        #[cfg(not(feature = "rustls"))]
        None
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
