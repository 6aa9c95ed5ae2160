//! What every transport shares, whichever binding and protocol version it speaks: the metadata of a
//! call ([`CallMeta`]); for the HTTP transports, the client, base URL and decode budget of an
//! interface ([`Common`]) and how the answer to a streaming call is read ([`stream_or_error`]).

use a2a_protocol::limits::Limits;
use a2a_protocol::sse::{JsonDecoder, StreamItem};
use a2a_types::v1::StreamResponse;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::binding::Binding;
use crate::error::ClientError;
use crate::http::{is_event_stream, read_json, with_query};
use crate::observe::Observing;
use crate::stream::EventStream;

/// What one request carries besides its body: service parameters, credentials, trace context.
#[derive(Clone, Debug, Default)]
pub(crate) struct CallMeta {
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) query: Vec<(String, String)>,
    /// The exchange the configured observer is told of; `None` without an observer.
    pub(crate) observing: Option<Observing>,
}

/// What every HTTP request of the client carries.
#[derive(Clone, Debug)]
pub(crate) struct Common {
    http: reqwest::Client,
    base_url: String,
    limits: Limits,
}

impl Common {
    pub(crate) fn new(http: reqwest::Client, url: &str, limits: Limits) -> Self {
        Common {
            http,
            base_url: url.trim_end_matches('/').to_owned(),
            limits,
        }
    }

    pub(crate) fn request(
        &self,
        method: reqwest::Method,
        url: &str,
        meta: &CallMeta,
    ) -> reqwest::RequestBuilder {
        let url = with_query(url, &meta.query);
        let mut request = self.http.request(method, url);
        for (name, value) in &meta.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        request
    }

    pub(crate) fn base_url(&self) -> &str {
        &self.base_url
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }
}

/// What an HTTP+JSON answer to a streaming request that started no stream is: for a 2xx, JSON where
/// a stream was asked for (an agent that does not stream); otherwise the binding's error, read by
/// `error` from the status and body.
pub(crate) fn rest_no_stream(
    operation: impl std::fmt::Display,
    status: u16,
    json: Value,
    error: impl FnOnce(u16, &Value) -> ClientError,
) -> ClientError {
    if (200..300).contains(&status) {
        ClientError::invalid(
            Some(Binding::HttpJson),
            format!(
                "asked for a stream of {operation}, got HTTP {status} JSON: {}",
                a2a_types::json::bounded(&json.to_string())
            ),
        )
    } else {
        error(status, &json)
    }
}

/// The answer to a streaming request on `binding`: a 2xx `text/event-stream` answer is the stream,
/// its events decoded under `limits` and each read by `read_event`. Any other answer started no
/// stream: it is read as JSON under `limits` (an error body only up to
/// [`MAX_ERROR_BODY`](crate::http::MAX_ERROR_BODY)), and `no_stream` says, from its status and
/// body, what the binding reads it as.
pub(crate) async fn stream_or_error<T: DeserializeOwned + Send + 'static>(
    binding: Binding,
    response: reqwest::Response,
    limits: &Limits,
    read_event: impl Fn(StreamItem<T, Value>) -> Result<StreamResponse, ClientError> + Send + 'static,
    no_stream: impl FnOnce(u16, Value) -> ClientError,
) -> Result<EventStream, ClientError> {
    let status = response.status().as_u16();
    if is_event_stream(&response) && (200..300).contains(&status) {
        let decoder = JsonDecoder::with_limits(*limits);
        return Ok(EventStream::sse(
            binding,
            response,
            decoder,
            Box::new(read_event),
        ));
    }
    let (status, json) = read_json(binding, response, limits).await?;
    Err(no_stream(status, json))
}
