//! An OpenAPI document as one self-contained HTML page: inline CSS, no script, no font, image or
//! stylesheet fetched, so it opens the same from a file, offline, or behind a strict Content Security
//! Policy.
//!
//! Hand-written rather than an embedded Swagger UI or Redoc: those are megabytes of third-party
//! JavaScript that would have to be vendored into this crate to keep the page offline. The page shows
//! what a reader needs: the agent and its skills (from the description), its servers, its security
//! schemes, each operation with
//! its parameters, body, responses and security, and every schema, with `$ref`s as links.

use std::fmt::Write as _;

use serde_json::Value;

const STYLE: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1f2328;background:#f6f8fa;line-height:1.45}
header{background:#0b3d5c;color:#fff;padding:1.5rem 2rem}header h1{margin:0 0 .3rem}header .version{opacity:.8}
main{padding:1rem 2rem;max-width:70rem}section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:1rem 1.5rem;margin:1rem 0}
h2{margin-top:0;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
pre{background:#f6f8fa;padding:.7rem;border-radius:6px;overflow-x:auto}table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
details{border:1px solid #d0d7de;border-radius:6px;margin:.5rem 0;padding:.3rem .7rem}summary{cursor:pointer;font-weight:600}
.method{display:inline-block;min-width:4.2rem;text-align:center;color:#fff;border-radius:4px;padding:0 .4rem;margin-right:.5rem;font-size:.8rem}
.get{background:#1f6feb}.post{background:#1a7f37}.delete{background:#cf222e}.put,.patch{background:#9a6700}
.path{font-family:ui-monospace,monospace}.muted{color:#57606a;font-weight:normal}.tag{display:inline-block;background:#ddf4ff;border-radius:1rem;padding:0 .6rem;margin:0 .2rem .2rem 0;font-size:.8rem}
";

/// Escapes text for HTML content and attribute values: `&`, `<`, `>`, `"` and `'` become
/// character references, so text from anyone (a card, a caller's message) never becomes markup.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// Inline Markdown: `code` only; everything else stays text.
fn inline(line: &str) -> String {
    let mut out = String::new();
    for (index, piece) in line.split('`').enumerate() {
        if index % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape_html(piece));
        } else {
            out.push_str(&escape_html(piece));
        }
    }
    out
}

/// The subset of Markdown the descriptions use: `##`/`###` headings, `- ` lists, paragraphs.
fn markdown(source: &str) -> String {
    let mut out = String::new();
    let mut in_list = false;
    for line in source.lines() {
        let line = line.trim_end();
        let is_item = line.starts_with("- ");
        if in_list && !is_item {
            out.push_str("</ul>\n");
            in_list = false;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            let _ = writeln!(out, "<h4>{}</h4>", inline(heading));
        } else if let Some(heading) = line.strip_prefix("## ") {
            let _ = writeln!(out, "<h3>{}</h3>", inline(heading));
        } else if let Some(item) = line.strip_prefix("- ") {
            if !in_list {
                out.push_str("<ul>\n");
                in_list = true;
            }
            let _ = writeln!(out, "<li>{}</li>", inline(item));
        } else if !line.is_empty() {
            let _ = writeln!(out, "<p>{}</p>", inline(line));
        }
    }
    if in_list {
        out.push_str("</ul>\n");
    }
    out
}

fn schema_anchor(reference: &str) -> Option<String> {
    reference
        .strip_prefix("#/components/schemas/")
        .map(|name| format!("schema-{name}"))
}

/// A schema's name as a link when it is a reference, else its JSON.
fn schema_summary(schema: &Value) -> String {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => link(reference),
        None => format!("<code>{}</code>", escape_html(&compact(schema))),
    }
}

fn link(reference: &str) -> String {
    let name = reference.rsplit('/').next().unwrap_or(reference);
    match schema_anchor(reference) {
        Some(anchor) => format!(
            "<a href=\"#{anchor}\"><code>{}</code></a>",
            escape_html(name)
        ),
        None => format!("<code>{}</code>", escape_html(reference)),
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Pretty JSON with every `$ref` to a schema as a link.
fn json_html(value: &Value, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent + 1);
    let close = "  ".repeat(indent);
    match value {
        Value::Object(object) if !object.is_empty() => {
            out.push_str("{\n");
            for (index, (key, item)) in object.iter().enumerate() {
                let _ = write!(
                    out,
                    "{pad}{}: ",
                    escape_html(&compact(&Value::String(key.clone())))
                );
                match (key.as_str(), item) {
                    ("$ref", Value::String(reference)) => out.push_str(&link(reference)),
                    _ => json_html(item, indent + 1, out),
                }
                out.push_str(if index + 1 < object.len() {
                    ",\n"
                } else {
                    "\n"
                });
            }
            let _ = write!(out, "{close}}}");
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (index, item) in items.iter().enumerate() {
                out.push_str(&pad);
                json_html(item, indent + 1, out);
                out.push_str(if index + 1 < items.len() { ",\n" } else { "\n" });
            }
            let _ = write!(out, "{close}]");
        }
        other => out.push_str(&escape_html(&compact(other))),
    }
}

fn security_list(security: &Value) -> String {
    match security.as_array() {
        Some(alternatives) if alternatives.is_empty() => "none (public)".into(),
        Some(alternatives) => alternatives
            .iter()
            .map(|requirement| {
                requirement
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, scopes)| {
                        let scopes: Vec<&str> = scopes
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .collect();
                        if scopes.is_empty() {
                            format!("<code>{}</code>", escape_html(name))
                        } else {
                            format!(
                                "<code>{}</code> ({})",
                                escape_html(name),
                                escape_html(&scopes.join(", "))
                            )
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" and ")
            })
            .collect::<Vec<_>>()
            .join(" <em>or</em> "),
        None => "none declared".into(),
    }
}

fn servers_table(servers: &Value) -> String {
    let mut out = String::from("<table><tr><th>URL</th><th>description</th></tr>\n");
    for server in servers.as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td></tr>",
            escape_html(text(&server["url"])),
            inline(text(&server["description"]))
        );
    }
    out.push_str("</table>\n");
    out
}

fn operation_html(
    method: &str,
    path: &str,
    operation: &Value,
    global_security: &Value,
    shared_parameters: &Value,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<details id=\"op-{id}\"><summary><span class=\"method {method}\">{upper}</span><span class=\"path\">{path}</span> <span class=\"muted\">{summary}</span></summary>",
        id = escape_html(text(&operation["operationId"])),
        upper = method.to_uppercase(),
        path = escape_html(path),
        summary = inline(text(&operation["summary"])),
    );
    let _ = writeln!(
        out,
        "<p>{}</p><p>Operation <code>{}</code>{}</p>",
        inline(text(&operation["description"])),
        escape_html(text(&operation["operationId"])),
        if operation["x-a2a-streaming"] == Value::Bool(true) {
            "; answers with a stream of server-sent events"
        } else {
            ""
        }
    );
    let security = operation.get("security").unwrap_or(global_security);
    let _ = writeln!(out, "<p>Security: {}</p>", security_list(security));
    let parameters: Vec<&Value> = operation["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    if !parameters.is_empty() {
        out.push_str("<table><tr><th>parameter</th><th>in</th><th>required</th><th>schema</th><th>description</th></tr>\n");
        for parameter in parameters {
            let (name, location, required, schema, description) = match parameter["$ref"].as_str() {
                Some(reference) => {
                    // A shared parameter (the service parameters): shown by its header name.
                    let shared =
                        &shared_parameters[reference.rsplit('/').next().unwrap_or_default()];
                    (
                        text(&shared["name"]).to_owned(),
                        text(&shared["in"]).to_owned(),
                        shared["required"] == Value::Bool(true),
                        String::from("string"),
                        "see Service parameters".to_owned(),
                    )
                }
                None => (
                    text(&parameter["name"]).to_owned(),
                    text(&parameter["in"]).to_owned(),
                    parameter["required"] == Value::Bool(true),
                    schema_summary(&parameter["schema"]),
                    text(&parameter["description"]).to_owned(),
                ),
            };
            let _ = writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape_html(&name),
                escape_html(&location),
                if required { "yes" } else { "no" },
                schema,
                inline(&description)
            );
        }
        out.push_str("</table>\n");
    }
    if let Some(content) = operation["requestBody"]["content"].as_object() {
        let types: Vec<&String> = content.keys().collect();
        if let Some(first) = content.values().next() {
            let _ = writeln!(
                out,
                "<p>Request body ({}): {}</p>",
                escape_html(
                    &types
                        .iter()
                        .map(|t| t.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                schema_summary(&first["schema"])
            );
            for (name, example) in first["examples"].as_object().into_iter().flatten() {
                let mut json = String::new();
                json_html(&example["value"], 0, &mut json);
                let _ = writeln!(
                    out,
                    "<details><summary>Example <code>{}</code> <span class=\"muted\">{}</span></summary><pre>{json}</pre></details>",
                    escape_html(name),
                    escape_html(text(&example["summary"]))
                );
            }
        }
    }
    out.push_str("<table><tr><th>status</th><th>content</th><th>description</th></tr>\n");
    for (status, response) in operation["responses"].as_object().into_iter().flatten() {
        let content: Vec<String> = response["content"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(media_type, media)| {
                let schema = media
                    .get("x-a2a-event-schema")
                    .map(|event| format!("events of {}", schema_summary(event)))
                    .unwrap_or_else(|| schema_summary(&media["schema"]));
                format!("<code>{}</code>: {schema}", escape_html(media_type))
            })
            .collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape_html(status),
            content.join("<br>"),
            inline(text(&response["description"]))
        );
    }
    out.push_str("</table></details>\n");
    out
}

fn security_schemes_html(schemes: &Value) -> String {
    let mut out = String::from("<table><tr><th>name</th><th>type</th><th>details</th></tr>\n");
    for (name, scheme) in schemes.as_object().into_iter().flatten() {
        let mut details = scheme.clone();
        if let Some(object) = details.as_object_mut() {
            object.remove("type");
        }
        let mut json = String::new();
        json_html(&details, 0, &mut json);
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td><td><pre>{json}</pre></td></tr>",
            escape_html(name),
            escape_html(text(&scheme["type"]))
        );
    }
    out.push_str("</table>\n");
    out
}

/// The whole page for an OpenAPI document (any OpenAPI 3.1 document; the `x-a2a-*` extensions of
/// [`super::openapi`] add the streaming marks).
pub fn render_html(openapi: &Value) -> String {
    let info = &openapi["info"];
    let title = text(&info["title"]);
    let global_security = openapi.get("security").cloned().unwrap_or(Value::Null);
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<header><h1>{}</h1><div class=\"version\">version {} · OpenAPI {}</div></header>\n<main>",
        escape_html(title),
        escape_html(text(&info["version"])),
        escape_html(text(&openapi["openapi"]))
    );
    let _ = writeln!(
        body,
        "<section><h2>About</h2>{}",
        markdown(text(&info["description"]))
    );
    if let Some(contact) = info.get("contact") {
        let _ = writeln!(
            body,
            "<p>Provider: {} (<code>{}</code>)</p>",
            escape_html(text(&contact["name"])),
            escape_html(text(&contact["url"]))
        );
    }
    if let Some(docs) = openapi.get("externalDocs") {
        let _ = writeln!(
            body,
            "<p>Documentation: <code>{}</code></p>",
            escape_html(text(&docs["url"]))
        );
    }
    body.push_str("</section>\n");
    let _ = writeln!(
        body,
        "<section><h2>Servers</h2>{}</section>",
        servers_table(&openapi["servers"])
    );
    if let Some(schemes) = openapi["components"].get("securitySchemes") {
        let _ = writeln!(
            body,
            "<section><h2>Security schemes</h2>{}</section>",
            security_schemes_html(schemes)
        );
    }
    body.push_str("<section><h2>Operations</h2>\n");
    for (path, item) in openapi["paths"].as_object().into_iter().flatten() {
        for method in ["get", "put", "post", "delete", "patch"] {
            if let Some(operation) = item.get(method) {
                body.push_str(&operation_html(
                    method,
                    path,
                    operation,
                    &global_security,
                    &openapi["components"]["parameters"],
                ));
            }
        }
    }
    body.push_str("</section>\n");
    if let Some(parameters) = openapi["components"]["parameters"].as_object() {
        body.push_str("<section><h2>Service parameters</h2><table><tr><th>header</th><th>description</th></tr>\n");
        for parameter in parameters.values() {
            let _ = writeln!(
                body,
                "<tr><td><code>{}</code></td><td>{}</td></tr>",
                escape_html(text(&parameter["name"])),
                inline(text(&parameter["description"]))
            );
        }
        body.push_str("</table></section>\n");
    }
    body.push_str("<section><h2>Schemas</h2>\n");
    for (name, schema) in openapi["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
    {
        let mut json = String::new();
        json_html(schema, 0, &mut json);
        let _ = writeln!(
            body,
            "<details id=\"schema-{name}\"><summary>{name} <span class=\"muted\">{description}</span></summary><pre>{json}</pre></details>",
            name = escape_html(name),
            description = inline(
                text(&schema["description"])
                    .lines()
                    .next()
                    .unwrap_or_default()
            ),
        );
    }
    body.push_str("</section>\n</main>\n");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n<title>{} — API</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape_html(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_code_spans_kept() {
        assert_eq!(inline("a <b> `x&y`"), "a &lt;b&gt; <code>x&amp;y</code>");
        let html = markdown("intro\n\n## Skills\n- one\n- two\nafter");
        assert_eq!(
            html,
            "<p>intro</p>\n<h3>Skills</h3>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p>after</p>\n"
        );
    }

    #[test]
    fn references_become_links() {
        let mut out = String::new();
        json_html(
            &serde_json::json!({"items": {"$ref": "#/components/schemas/Task"}}),
            0,
            &mut out,
        );
        assert!(
            out.contains("<a href=\"#schema-Task\"><code>Task</code></a>"),
            "{out}"
        );
    }
}
