//! The HTTP plumbing every HTTP request of the client shares, whatever it carries (a card, a token,
//! a JSON-RPC or HTTP+JSON call): sending, with connection failures told apart; reading a body
//! without ever buffering more than a limit (an error body no more than [`MAX_ERROR_BODY`]); reading
//! an answer as JSON under the decode budget; describing reqwest's errors; percent-encoding.

use a2a_protocol::limits::Limits;
use a2a_protocol::service;
use serde_json::Value;

use crate::binding::Binding;
use crate::error::ClientError;
use crate::observe::{Observing, Payload, Wire, header_pairs};

/// The most of an error answer (a status other than 2xx) that is read: A2A error bodies are small,
/// and a hostile or broken server's 50 MB page is not worth holding.
pub const MAX_ERROR_BODY: usize = 64 * 1024;

/// `url` with `query` appended, percent-encoded.
pub(crate) fn with_query(url: &str, query: &[(String, String)]) -> String {
    if query.is_empty() {
        return url.to_owned();
    }
    let mut out = url.to_owned();
    let mut separator = if url.contains('?') { '&' } else { '?' };
    for (name, value) in query {
        out.push(separator);
        out.push_str(&percent_encode(name));
        out.push('=');
        out.push_str(&percent_encode(value));
        separator = '&';
    }
    out
}

/// Percent-encodes all but RFC 3986's unreserved characters.
pub(crate) fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Sends `request`; a failure to get an answer is a transport error, a failure to connect
/// [`ClientError::Unreachable`]. When the call is `observing`, the observer is told of the request
/// and of the answer's head, and the answer carries the observation on to whoever reads its body.
pub(crate) async fn send(
    binding: Binding,
    url: &str,
    request: reqwest::RequestBuilder,
    observing: Option<&Observing>,
) -> Result<reqwest::Response, ClientError> {
    let sent = match observing {
        None => request.send().await,
        Some(observing) => observed_send(request, observing).await,
    };
    sent.map_err(|e| send_error(Some(binding), url, &e))
}

/// What [`reqwest::RequestBuilder::send`] does (build, then execute on the builder's client),
/// telling `observing` of the request as built and of the answer's status and headers.
async fn observed_send(
    request: reqwest::RequestBuilder,
    observing: &Observing,
) -> reqwest::Result<reqwest::Response> {
    let (client, request) = request.build_split();
    let request = request?;
    let body = request.body().and_then(reqwest::Body::as_bytes);
    observing.tell(Wire::Request {
        method: request.method().to_string(),
        url: request.url().to_string(),
        headers: header_pairs(request.headers()),
        body: Payload::Bytes(body.unwrap_or_default().to_vec()),
    });
    let mut response = client.execute(request).await?;
    observing.tell(Wire::Response {
        status: format!("HTTP {}", response.status()),
        headers: header_pairs(response.headers()),
    });
    response.extensions_mut().insert(observing.clone());
    Ok(response)
}

/// The observation an answer carries ([`send`]), if its call is observed.
pub(crate) fn observing_of(response: &reqwest::Response) -> Option<Observing> {
    response.extensions().get::<Observing>().cloned()
}

pub(crate) fn send_error(
    binding: Option<Binding>,
    url: &str,
    error: &reqwest::Error,
) -> ClientError {
    #[cfg(feature = "rustls")]
    if let Some(message) = crate::tls::tls_failure(error) {
        return ClientError::Tls {
            binding,
            url: url.to_owned(),
            message,
        };
    }
    if error.is_connect() {
        unreachable(binding, url, error)
    } else {
        ClientError::transport(binding, describe(error))
    }
}

/// For a request that failed to connect: the error, named by its URL.
pub(crate) fn unreachable(
    binding: Option<Binding>,
    url: &str,
    error: &reqwest::Error,
) -> ClientError {
    ClientError::Unreachable {
        binding,
        url: url.to_owned(),
        message: describe(error),
    }
}

/// Reads a whole body, refusing (without buffering it) one over `max` bytes.
pub(crate) async fn read_limited(
    binding: Option<Binding>,
    mut response: reqwest::Response,
    max: usize,
) -> Result<Vec<u8>, ClientError> {
    let over = |size: String| {
        ClientError::invalid(
            binding,
            format!(
                "the answer is {size} bytes, more than the {max} allowed (the max_bytes limit)"
            ),
        )
    };
    if let Some(length) = response.content_length()
        && usize::try_from(length).map_or(true, |length| length > max)
    {
        return Err(over(length.to_string()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| ClientError::transport(binding, describe(&e)))?
    {
        if body.len() + chunk.len() > max {
            return Err(over(format!("over {}", body.len() + chunk.len())));
        }
        body.extend_from_slice(&chunk);
    }
    if let Some(observing) = observing_of(&response) {
        observing.tell(Wire::Body(Payload::Bytes(body.clone())));
    }
    Ok(body)
}

/// reqwest's message and its causes, which hold what actually happened (refused, timed out, ...).
pub(crate) fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn content_type(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.to_ascii_lowercase())
}

pub(crate) fn is_event_stream(response: &reqwest::Response) -> bool {
    content_type(response).is_some_and(|v| v.starts_with(service::MEDIA_TYPE_EVENT_STREAM))
}

/// Reads an answer's body as JSON under the decode budget. A 2xx answer must be JSON (by its content
/// type, when it names one); any other status is read only up to [`MAX_ERROR_BODY`], and a body that
/// is not JSON makes it a transport error with the status.
pub(crate) async fn read_json(
    binding: Binding,
    response: reqwest::Response,
    limits: &Limits,
) -> Result<(u16, Value), ClientError> {
    let (status, body) = read_json_body(binding, response, limits).await?;
    json_of(binding, status, &body, limits).map(|json| (status, json))
}

/// The status and body of an answer [`read_json`] would read, not yet parsed: for a reader that
/// tries a typed read of the bytes first, and gives them to [`json_of`] when that fails.
pub(crate) async fn read_json_body(
    binding: Binding,
    response: reqwest::Response,
    limits: &Limits,
) -> Result<(u16, Vec<u8>), ClientError> {
    let status = response.status().as_u16();
    if status == 401 || status == 403 {
        return Err(refusal(binding, response).await);
    }
    let success = (200..300).contains(&status);
    let media_type = content_type(&response);
    if success
        && let Some(media_type) = &media_type
        && !media_type.contains("json")
    {
        return Err(ClientError::invalid(
            Some(binding),
            format!("HTTP {status} with content type {media_type:?}, not JSON"),
        ));
    }
    let max = if success {
        limits.max_bytes()
    } else {
        limits.max_bytes().min(MAX_ERROR_BODY)
    };
    let body = match read_limited(Some(binding), response, max).await {
        Ok(body) => body,
        Err(ClientError::InvalidResponse { message, .. }) if !success => {
            return Err(ClientError::transport(
                Some(binding),
                format!("HTTP {status}: {message}"),
            ));
        }
        Err(e) => return Err(e),
    };
    Ok((status, body))
}

/// `body`, the body of an answer with `status`, as JSON under `limits` (see [`read_json`]).
pub(crate) fn json_of(
    binding: Binding,
    status: u16,
    body: &[u8],
    limits: &Limits,
) -> Result<Value, ClientError> {
    let success = (200..300).contains(&status);
    if body.is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    let parsed = limits
        .check_json(body)
        .map_err(|e| e.to_string())
        .and_then(|_| a2a_types::json::value_from_slice(body).map_err(|e| e.to_string()));
    match parsed {
        Ok(json) => Ok(json),
        Err(e) if success => Err(ClientError::invalid(
            Some(binding),
            format!("the body is not JSON ({e})"),
        )),
        Err(_) => {
            let text = a2a_types::json::bounded(&String::from_utf8_lossy(body));
            Err(ClientError::transport(
                Some(binding),
                format!("HTTP {status}: {text}"),
            ))
        }
    }
}

/// An HTTP 401 or 403 as the client's refusal: the agent's reason from its JSON body (a JSON-RPC
/// error's or an HTTP+JSON error's `message`), and its `WWW-Authenticate` challenge.
async fn refusal(binding: Binding, response: reqwest::Response) -> ClientError {
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get(reqwest::header::WWW_AUTHENTICATE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = read_limited(Some(binding), response, MAX_ERROR_BODY)
        .await
        .unwrap_or_default();
    let json: Value = serde_json::from_slice(&body).unwrap_or_default();
    let message = json["error"]["message"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| a2a_types::json::bounded(&String::from_utf8_lossy(&body)));
    ClientError::Refused {
        binding: Some(binding),
        forbidden: status == 403,
        message: format!("HTTP {status}: {message}"),
        challenge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parameters_are_percent_encoded() {
        let query = [("api key".to_owned(), "a/b&c=d é".to_owned())];
        assert_eq!(
            with_query("http://h/rpc", &query),
            "http://h/rpc?api%20key=a%2Fb%26c%3Dd%20%C3%A9"
        );
        assert_eq!(with_query("http://h/t?x=1", &query[..0]), "http://h/t?x=1");
        assert!(with_query("http://h/t?x=1", &query).starts_with("http://h/t?x=1&api"));
    }
}
