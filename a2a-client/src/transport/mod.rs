//! The transports: how one interface of an agent's card is called, one module per binding (and per
//! protocol version), all on the same contract ([`contract`]). [`Endpoint`] is what the client holds
//! for each interface it may use: the interface and the transport that speaks its binding.

pub(crate) mod contract;
pub(crate) mod grpc;
pub(crate) mod jsonrpc;
pub(crate) mod older;
pub(crate) mod older_card;
pub(crate) mod rest;
pub(crate) mod v0_3;

use a2a_compat::bridge::OlderVersion;
use a2a_protocol::operations::{MethodParams, MethodResult};
use a2a_protocol::service::ProtocolVersion;

use self::contract::CallMeta;
use crate::binding::Binding;
use crate::card::Candidate;
use crate::config::ClientConfig;
use crate::error::ClientError;
use crate::stream::EventStream;

/// The transport of one interface.
#[derive(Clone, Debug)]
enum Transport {
    JsonRpc(jsonrpc::JsonRpcTransport),
    HttpJson(rest::RestTransport),
    Grpc(grpc::GrpcTransport),
    JsonRpcV0_3(v0_3::jsonrpc::JsonRpcV0_3Transport),
    HttpJsonV0_3(v0_3::rest::RestV0_3Transport),
    GrpcV0_3(v0_3::grpc::GrpcV0_3Transport),
}

/// One usable interface of the card and its transport.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    pub(crate) candidate: Candidate,
    transport: Transport,
}

impl Endpoint {
    /// The transport of `candidate`'s interface, sending with `http` (the HTTP bindings) or a channel
    /// of its own (gRPC); nothing is connected yet. `extended_card`: whether the card declares an
    /// extended card (which a v0.2 agent serves by GET, beside its `url`).
    pub(crate) fn new(
        candidate: Candidate,
        config: &ClientConfig,
        http: &reqwest::Client,
        extended_card: bool,
    ) -> Result<Self, ClientError> {
        let url = &candidate.interface.url;
        let transport = match (candidate.binding, candidate.version) {
            // A v0.2 interface is a v0.3 one on JSON-RPC (`interface_version`), its requests checked
            // through the v0.2 types; v0.1 defined JSON-RPC only, and `candidates` offers no other
            // binding for it.
            (Binding::JsonRpc, ProtocolVersion::V0_3) | (_, ProtocolVersion::V0_1) => {
                let wire = match OlderVersion::parse(&candidate.interface.protocol_version) {
                    Some(version @ (OlderVersion::V0_2 | OlderVersion::V0_1)) => {
                        v0_3::jsonrpc::Wire::Older(version)
                    }
                    _ if candidate.version == ProtocolVersion::V0_1 => {
                        v0_3::jsonrpc::Wire::Older(OlderVersion::V0_1)
                    }
                    _ => v0_3::jsonrpc::Wire::V0_3,
                };
                let transport = v0_3::jsonrpc::JsonRpcV0_3Transport::new(
                    http.clone(),
                    url,
                    config.limits,
                    wire,
                );
                Transport::JsonRpcV0_3(
                    if extended_card && wire == v0_3::jsonrpc::Wire::Older(OlderVersion::V0_2) {
                        transport.with_extended_card(older_card::extended_card_url(url)?)
                    } else {
                        transport
                    },
                )
            }
            (Binding::HttpJson, ProtocolVersion::V0_3) => Transport::HttpJsonV0_3(
                v0_3::rest::RestV0_3Transport::new(http.clone(), url, config.limits),
            ),
            (Binding::Grpc, ProtocolVersion::V0_3) => {
                Transport::GrpcV0_3(v0_3::grpc::GrpcV0_3Transport::new(url, config)?)
            }
            (Binding::JsonRpc, _) => Transport::JsonRpc(jsonrpc::JsonRpcTransport::new(
                http.clone(),
                url,
                config.limits,
            )),
            (Binding::HttpJson, _) => {
                Transport::HttpJson(rest::RestTransport::new(http.clone(), url, config.limits))
            }
            (Binding::Grpc, _) => Transport::Grpc(grpc::GrpcTransport::new(url, config)?),
        };
        Ok(Endpoint {
            candidate,
            transport,
        })
    }

    fn tenant(&self) -> Option<&str> {
        self.candidate
            .interface
            .tenant
            .as_deref()
            .filter(|t| !t.is_empty())
    }

    pub(crate) async fn call(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<MethodResult, ClientError> {
        match &self.transport {
            Transport::JsonRpc(t) => t.call(params, meta).await,
            Transport::HttpJson(t) => t.call(params, self.tenant(), meta).await,
            Transport::Grpc(t) => t.call(params, meta).await,
            Transport::JsonRpcV0_3(t) => t.call(params, meta).await,
            Transport::HttpJsonV0_3(t) => t.call(params, meta).await,
            Transport::GrpcV0_3(t) => t.call(params, meta).await,
        }
    }

    pub(crate) async fn stream(
        &self,
        params: MethodParams,
        meta: &CallMeta,
    ) -> Result<EventStream, ClientError> {
        match &self.transport {
            Transport::JsonRpc(t) => t.stream(params, meta).await,
            Transport::HttpJson(t) => t.stream(params, self.tenant(), meta).await,
            Transport::Grpc(t) => t.stream(params, meta).await,
            Transport::JsonRpcV0_3(t) => t.stream(params, meta).await,
            Transport::HttpJsonV0_3(t) => t.stream(params, meta).await,
            Transport::GrpcV0_3(t) => t.stream(params, meta).await,
        }
    }
}
