//! The page's files, compiled into the binary (no build step, nothing fetched from elsewhere), and
//! the headers each is served with: the page may talk to this server only (`connect-src 'self'`),
//! may not be framed by another site, and sends no `Referer` (its URL holds the run's token).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Each file: its name in the URL, its media type and its contents.
const FILES: [(&str, &str, &str); 5] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_str!("page/api.js"),
    ),
    (
        "render.js",
        "text/javascript; charset=utf-8",
        include_str!("page/render.js"),
    ),
];

/// What the page may load and talk to: this server only.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The file `name` with its headers, or `None` when there is no such file.
pub fn respond(name: &str) -> Option<Response> {
    let (_, media_type, contents) = FILES.iter().find(|(file, _, _)| *file == name)?;
    let mut response = (StatusCode::OK, *contents).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Some(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_only_its_own_modules() {
        let (_, _, index) = FILES[0];
        for (name, _, contents) in FILES {
            for outside in [
                "src=\"http",
                "href=\"http",
                "from \"http",
                "import(\"http",
                "url(http",
            ] {
                assert!(
                    !contents.contains(outside),
                    "{name} loads from another site"
                );
            }
            if name.ends_with(".js") {
                assert!(
                    index.contains(&format!("/{name}"))
                        || FILES
                            .iter()
                            .any(|(_, _, c)| c.contains(&format!("./{name}"))),
                    "{name} is never loaded"
                );
            }
        }
        assert!(respond("app.js").is_some());
        assert!(respond("../Cargo.toml").is_none());
    }
}
