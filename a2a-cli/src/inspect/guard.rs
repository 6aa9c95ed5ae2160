//! Who may use the inspector: only the page it served, in the browser of the person who ran it.
//! Every request must name the server by its loopback address (`Host`), so a site whose name was
//! rebound to 127.0.0.1 is refused; a request a browser marks with an `Origin` must come from the
//! page's own origin; and the page and its API need the run's token, which only the printed URL holds
//! (a site cannot read it, and a request carrying the API's token header from another origin would
//! need a CORS permission this server never gives).

use axum::http::{HeaderMap, StatusCode, header};

/// The header carrying the token on API requests.
pub const TOKEN_HEADER: &str = "x-a2a-inspect-token";

/// Why a request is refused.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    pub status: StatusCode,
    pub reason: &'static str,
}

/// What a request must show.
pub struct Guard<'a> {
    /// The port the inspector listens on.
    pub port: u16,
    /// The run's token.
    pub token: &'a str,
}

impl Guard<'_> {
    /// Checks the `Host` and `Origin` of any request to the server.
    pub fn check_site(&self, headers: &HeaderMap) -> Result<(), Refused> {
        let host = text(headers, header::HOST.as_str()).unwrap_or_default();
        if !self.is_own_host(host) {
            return Err(Refused {
                status: StatusCode::MISDIRECTED_REQUEST,
                reason: "the inspector answers only requests to its loopback address",
            });
        }
        if let Some(origin) = text(headers, header::ORIGIN.as_str())
            && origin != format!("http://{host}")
        {
            return Err(Refused {
                status: StatusCode::FORBIDDEN,
                reason: "requests from other sites are refused",
            });
        }
        Ok(())
    }

    /// Checks an API request: its site, and the token in [`TOKEN_HEADER`].
    pub fn check_api(&self, headers: &HeaderMap) -> Result<(), Refused> {
        self.check_site(headers)?;
        self.check_token(text(headers, TOKEN_HEADER))
    }

    /// Checks a token given with the request (the page's URL, or the API's header).
    pub fn check_token(&self, given: Option<&str>) -> Result<(), Refused> {
        match given {
            Some(given) if same(given.as_bytes(), self.token.as_bytes()) => Ok(()),
            _ => Err(Refused {
                status: StatusCode::FORBIDDEN,
                reason: "a missing or wrong token: use the address `a2a inspect` printed",
            }),
        }
    }

    /// Whether `host` is this server's loopback address and port.
    fn is_own_host(&self, host: &str) -> bool {
        let port = self.port.to_string();
        ["127.0.0.1", "localhost", "[::1]"].iter().any(|name| {
            host.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(':'))
                == Some(&port)
        })
    }
}

fn text<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Compares without stopping at the first difference, so timing does not reveal the token.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    const GUARD: Guard<'static> = Guard {
        port: 4321,
        token: "secret",
    };

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn only_the_loopback_host_and_own_origin_pass() {
        assert!(
            GUARD
                .check_site(&headers(&[("host", "127.0.0.1:4321")]))
                .is_ok()
        );
        assert!(
            GUARD
                .check_site(&headers(&[("host", "localhost:4321")]))
                .is_ok()
        );
        let same_origin = [
            ("host", "127.0.0.1:4321"),
            ("origin", "http://127.0.0.1:4321"),
        ];
        assert!(GUARD.check_site(&headers(&same_origin)).is_ok());
        for refused in [
            &[("host", "evil.example:4321")][..],
            &[("host", "127.0.0.1:4322")],
            &[("host", "127.0.0.1")],
            &[],
            &[
                ("host", "127.0.0.1:4321"),
                ("origin", "http://evil.example"),
            ],
            &[("host", "127.0.0.1:4321"), ("origin", "null")],
        ] {
            assert!(GUARD.check_site(&headers(refused)).is_err(), "{refused:?}");
        }
    }

    #[test]
    fn the_api_needs_the_token() {
        let host = ("host", "127.0.0.1:4321");
        assert!(
            GUARD
                .check_api(&headers(&[host, (TOKEN_HEADER, "secret")]))
                .is_ok()
        );
        for token in ["", "secreT", "secret2"] {
            let mut map = headers(&[host]);
            map.insert(TOKEN_HEADER, HeaderValue::from_str(token).unwrap());
            assert!(GUARD.check_api(&map).is_err(), "{token:?}");
        }
        assert!(GUARD.check_api(&headers(&[host])).is_err());
    }
}
