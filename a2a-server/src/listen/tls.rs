//! TLS settings (feature `rustls`): whom webhook deliveries trust ([`WebhookTls`]) and the
//! certificate the server presents from [`A2aServer::serve_tls`](crate::A2aServer::serve_tls)
//! ([`TlsIdentity`]), both public as [`crate::tls`].
//!
//! One crypto provider throughout: the one the program installed as the process default, else
//! aws-lc-rs (the rule tonic and reqwest follow too), so the webhook client, the HTTPS listener and the
//! gRPC listener negotiate with the same algorithms.

use std::fmt;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Whom webhook deliveries trust: the web PKI roots (Mozilla's list, compiled in) and extra roots,
/// such as a private CA's.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WebhookTls {
    /// Trust the web PKI roots (`true`).
    pub web_pki_roots: bool,
    /// More roots to trust (none); read PEM with
    /// [`PemObject::pem_slice_iter`].
    pub root_certificates: Vec<CertificateDer<'static>>,
}

impl Default for WebhookTls {
    fn default() -> Self {
        WebhookTls {
            web_pki_roots: true,
            root_certificates: Vec::new(),
        }
    }
}

impl WebhookTls {
    /// The web PKI roots and `roots`.
    pub fn with_roots(roots: impl IntoIterator<Item = CertificateDer<'static>>) -> Self {
        WebhookTls {
            root_certificates: roots.into_iter().collect(),
            ..WebhookTls::default()
        }
    }

    /// The rustls configuration of the webhook client.
    pub(crate) fn rustls_config(&self) -> Result<rustls::ClientConfig, TlsConfigError> {
        let mut roots = RootCertStore::empty();
        if self.web_pki_roots {
            roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        }
        for (index, root) in self.root_certificates.iter().enumerate() {
            let anchor = webpki::anchor_from_trusted_cert(root).map_err(|e| TlsConfigError {
                field: format!("webhook_tls.root_certificates[{index}]"),
                message: format!("not a usable certificate: {e}"),
            })?;
            roots.roots.push(anchor.to_owned());
        }
        if roots.is_empty() {
            return Err(TlsConfigError {
                field: "webhook_tls".into(),
                message: "no certificate is trusted: set web_pki_roots or give root certificates"
                    .into(),
            });
        }
        Ok(rustls::ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsConfigError {
                field: "webhook_tls".into(),
                message: format!("no TLS version usable: {e}"),
            })?
            .with_root_certificates(roots)
            .with_no_client_auth())
    }
}

/// The process's default crypto provider, else aws-lc-rs.
fn provider() -> Arc<CryptoProvider> {
    CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
}

/// A TLS setting that cannot be used, naming its field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsConfigError {
    /// The field at fault (`webhook_tls.root_certificates[0]`, `private_key`, ...).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for TlsConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for TlsConfigError {}

/// The certificate chain and private key the server presents, on HTTPS and gRPC alike, and
/// whether it asks clients for certificates of their own (mutual TLS).
#[derive(Clone)]
pub struct TlsIdentity {
    config: Arc<rustls::ServerConfig>,
    chain: Vec<CertificateDer<'static>>,
    key: Arc<PrivateKeyDer<'static>>,
}

impl TlsIdentity {
    /// An identity from PEM: the certificate chain (the server's certificate first) and its private
    /// key (PKCS #8, PKCS #1 or SEC1).
    ///
    /// # Errors
    ///
    /// [`TlsConfigError`] naming `certificate_chain` or `private_key` when either does not parse or
    /// the key does not match the certificate.
    pub fn from_pem(
        certificate_chain: impl Into<Vec<u8>>,
        private_key: impl Into<Vec<u8>>,
    ) -> Result<Self, TlsConfigError> {
        let (chain_pem, key_pem): (Vec<u8>, Vec<u8>) =
            (certificate_chain.into(), private_key.into());
        let chain = CertificateDer::pem_slice_iter(&chain_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| TlsConfigError {
                field: "certificate_chain".into(),
                message: format!("not PEM: {e}"),
            })?;
        if chain.is_empty() {
            return Err(TlsConfigError {
                field: "certificate_chain".into(),
                message: "holds no CERTIFICATE section".into(),
            });
        }
        let key = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| TlsConfigError {
            field: "private_key".into(),
            message: format!("no private key read: {e}"),
        })?;
        let builder = versions()?.with_no_client_auth();
        let config = with_identity(builder, &chain, &key)?;
        Ok(TlsIdentity {
            config: Arc::new(config),
            chain,
            key: Arc::new(key),
        })
    }

    /// The same identity, requiring every client to present a certificate issued under one of
    /// `client_roots` (PEM): a client without one, or with one from another root, fails the
    /// handshake on both listeners (rustls' `WebPkiClientVerifier`).
    ///
    /// # Errors
    ///
    /// [`TlsConfigError`] naming `client_roots` when they do not parse, hold no certificate, or
    /// one is not a usable trust anchor.
    pub fn require_client_certificates(
        self,
        client_roots: impl AsRef<[u8]>,
    ) -> Result<Self, TlsConfigError> {
        let refused = |message: String| TlsConfigError {
            field: "client_roots".into(),
            message,
        };
        let mut roots = RootCertStore::empty();
        for (index, root) in CertificateDer::pem_slice_iter(client_roots.as_ref()).enumerate() {
            let root = root.map_err(|e| refused(format!("not PEM: {e}")))?;
            roots
                .add(root)
                .map_err(|e| refused(format!("certificate {index}: {e}")))?;
        }
        if roots.is_empty() {
            return Err(refused("holds no CERTIFICATE section".into()));
        }
        let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
            Arc::new(roots),
            provider(),
        )
        .build()
        .map_err(|e| refused(e.to_string()))?;
        let builder = versions()?.with_client_cert_verifier(verifier);
        let config = with_identity(builder, &self.chain, &self.key)?;
        Ok(TlsIdentity {
            config: Arc::new(config),
            ..self
        })
    }

    /// The rustls configuration of the HTTPS and gRPC listeners.
    pub(crate) fn rustls_config(&self) -> Arc<rustls::ServerConfig> {
        self.config.clone()
    }
}

/// A server configuration's first step: the provider and its safe protocol versions.
fn versions()
-> Result<rustls::ConfigBuilder<rustls::ServerConfig, rustls::WantsVerifier>, TlsConfigError> {
    rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsConfigError {
            field: "certificate_chain".into(),
            message: format!("no TLS version usable: {e}"),
        })
}

/// The server configuration presenting `chain` and `key`, speaking both HTTP versions.
fn with_identity(
    builder: rustls::ConfigBuilder<rustls::ServerConfig, rustls::server::WantsServerCert>,
    chain: &[CertificateDer<'static>],
    key: &PrivateKeyDer<'static>,
) -> Result<rustls::ServerConfig, TlsConfigError> {
    let mut config = builder
        .with_single_cert(chain.to_vec(), key.clone_key())
        .map_err(|e| TlsConfigError {
            field: "private_key".into(),
            message: format!("not usable with the certificate: {e}"),
        })?;
    // Both HTTP versions, as both listeners serve both (hyper picks by the preface; gRPC clients
    // ask for h2).
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// The key stays out of logs.
impl fmt::Debug for TlsIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsIdentity").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_that_is_not_a_certificate_is_refused_by_index() {
        let tls = WebhookTls::with_roots([CertificateDer::from(vec![0x30, 0x01, 0x00])]);
        let error = tls.rustls_config().expect_err("not a certificate");
        assert_eq!(error.field, "webhook_tls.root_certificates[0]");
    }

    #[test]
    fn trusting_nothing_is_refused() {
        let tls = WebhookTls {
            web_pki_roots: false,
            ..WebhookTls::default()
        };
        assert_eq!(
            tls.rustls_config().expect_err("no roots").field,
            "webhook_tls"
        );
    }

    #[test]
    fn an_identity_without_a_key_or_chain_is_refused_by_field() {
        let error = TlsIdentity::from_pem("", "").expect_err("empty");
        assert_eq!(error.field, "certificate_chain");
        let error = TlsIdentity::from_pem("garbage", "garbage").expect_err("no PEM");
        assert_eq!(error.field, "certificate_chain");
    }
}
