//! The OpenAPI and OpenRPC documents: the generated ones (`spec/v1/generated/openapi.json`,
//! `openrpc.json`, `spec/v0_3/generated/openrpc.json`) agree with the operations table and the error
//! model; an agent's own documents (`a2a_protocol::describe`) follow its card, one test per mapping
//! rule; and every document passes the established validators and the official SDK's traffic
//! (`tests/interop/sdk_describe.py`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use a2a_protocol::describe;
use a2a_protocol::errors::{Error, ErrorKind};
use a2a_protocol::operations::{Capability, OPERATIONS};
use a2a_protocol::service::{
    A2A_EXTENSIONS_HEADER, A2A_VERSION_HEADER, WELL_KNOWN_AGENT_CARD_PATH,
};
use a2a_tests::interop::{Suite, python, run_script};
use a2a_tests::{fixture_json, workspace_root};
use a2a_types::v1::AgentCard;
use serde_json::{Value, json};

fn read(path: &str) -> Value {
    let text = std::fs::read_to_string(workspace_root().join(path)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn spec_openapi() -> Value {
    read("spec/v1/generated/openapi.json")
}

fn spec_openrpc() -> Value {
    read("spec/v1/generated/openrpc.json")
}

/// `/tasks/{id=*}:cancel` as an OpenAPI path: `/tasks/{id}:cancel`, `{task_id}` as `{taskId}`.
fn openapi_path(template: &str) -> String {
    let mut out = String::new();
    for (index, piece) in template.split('{').enumerate() {
        if index == 0 {
            out.push_str(piece);
            continue;
        }
        let (variable, rest) = piece.split_once('}').unwrap();
        let field = variable.split('=').next().unwrap();
        let mut camel = String::new();
        let mut upper = false;
        for c in field.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                camel.extend(c.to_uppercase());
                upper = false;
            } else {
                camel.push(c);
            }
        }
        out.push_str(&format!("{{{camel}}}{rest}"));
    }
    out
}

fn capability_name(capability: Capability) -> &'static str {
    match capability {
        Capability::Streaming => "streaming",
        Capability::PushNotifications => "pushNotifications",
        Capability::ExtendedAgentCard => "extendedAgentCard",
        _ => panic!("a capability this test does not know: {capability:?}"),
    }
}

/// The error named `name` in the documents (`TaskNotFoundError`), found by its JSON-RPC code.
fn by_code(document: &Value, code: i64) -> (String, Value) {
    let errors = document["components"]["errors"].as_object().unwrap();
    let (name, error) = errors
        .iter()
        .find(|(_, e)| e["code"] == code)
        .unwrap_or_else(|| panic!("no error with code {code}"));
    (name.clone(), error.clone())
}

#[test]
fn generated_errors_are_the_error_model() {
    let openrpc = spec_openrpc();
    let openapi = spec_openapi();
    assert_eq!(
        openrpc["components"]["errors"].as_object().unwrap().len(),
        ErrorKind::ALL.len()
    );
    for kind in ErrorKind::ALL {
        let (name, error) = by_code(&openrpc, kind.jsonrpc_code());
        assert_eq!(error["message"], kind.default_message(), "{name}");
        assert_eq!(error["data"]["reason"], kind.reason(), "{name}");
        assert_eq!(error["data"]["httpStatus"], kind.http_status(), "{name}");
        assert_eq!(
            error["data"]["grpcStatus"],
            kind.grpc_code().name(),
            "{name}"
        );
        // The HTTP+JSON example body is the one the error model writes.
        let example = &openapi["components"]["examples"][&name]["value"];
        assert_eq!(*example, Error::new(kind).to_rest(), "{name}");
    }
    // Each error response lists errors of its own status.
    for (path, item) in openapi["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if method == "servers" {
                continue;
            }
            for (status, response) in operation["responses"].as_object().unwrap() {
                for error in response["x-a2a-errors"].as_array().into_iter().flatten() {
                    let kind = ErrorKind::from_jsonrpc_code(error["jsonrpcCode"].as_i64().unwrap())
                        .unwrap();
                    assert_eq!(status, &kind.http_status().to_string(), "{method} {path}");
                }
            }
        }
    }
}

#[test]
fn openapi_has_every_binding_of_the_operations_table() {
    let openapi = spec_openapi();
    let paths = openapi["paths"].as_object().unwrap();
    let mut described = 0;
    for info in &OPERATIONS {
        for binding in info.http {
            let path = openapi_path(binding.path);
            let operation = &paths[&path][binding.method.to_lowercase()];
            assert_eq!(operation["x-a2a-operation"], info.rpc_name, "{path}");
            let success = &operation["responses"]["200"]["content"];
            if info.server_streaming {
                assert!(success["text/event-stream"].is_object(), "{path}");
            } else {
                assert!(success["application/json"].is_object(), "{path}");
            }
            assert_eq!(
                operation["requestBody"].is_object(),
                binding.body == "*",
                "{path}"
            );
            let fields = binding.path_fields();
            let path_parameters = operation["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["in"] == "path")
                .count();
            assert_eq!(path_parameters, fields.len(), "{path}");
            // The capability error is among the documented ones.
            if let Some(capability) = info.capability {
                let code = capability.not_declared_error().jsonrpc_code();
                let listed = operation["responses"]["400"]["x-a2a-errors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["jsonrpcCode"] == code);
                assert!(listed, "{path}");
                assert_eq!(operation["x-a2a-capability"], capability_name(capability));
            }
            described += 1;
        }
    }
    assert!(described >= 2 * OPERATIONS.len());
    assert!(paths[WELL_KNOWN_AGENT_CARD_PATH]["get"]["security"] == json!([]));
    let headers: BTreeSet<&str> = openapi["components"]["parameters"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        headers,
        BTreeSet::from([A2A_VERSION_HEADER, A2A_EXTENSIONS_HEADER])
    );
    // The components are the JSON Schema bundle's, references rewritten, nothing else redefined.
    let bundle = read("spec/v1/generated/a2a.json");
    for (name, schema) in bundle["$defs"].as_object().unwrap() {
        let rebased: Value = serde_json::from_str(
            &serde_json::to_string(schema)
                .unwrap()
                .replace("#/$defs/", "#/components/schemas/"),
        )
        .unwrap();
        assert_eq!(openapi["components"]["schemas"][name], rebased, "{name}");
    }
}

#[test]
fn openrpc_has_every_method_with_its_errors() {
    let openrpc = spec_openrpc();
    let methods = openrpc["methods"].as_array().unwrap();
    assert_eq!(methods.len(), OPERATIONS.len());
    for info in &OPERATIONS {
        let method = methods
            .iter()
            .find(|m| m["name"] == info.jsonrpc_method)
            .unwrap_or_else(|| panic!("{} missing", info.jsonrpc_method));
        assert_eq!(method["x-a2a-streaming"], info.server_streaming);
        assert_eq!(
            format!(
                "lf.a2a.v1.{}",
                method["x-a2a-request-type"].as_str().unwrap()
            ),
            info.request_type
        );
        let codes: Vec<i64> = method["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let name = r["$ref"].as_str().unwrap().rsplit('/').next().unwrap();
                openrpc["components"]["errors"][name]["code"]
                    .as_i64()
                    .unwrap()
            })
            .collect();
        assert!(codes.contains(&ErrorKind::InvalidParams.jsonrpc_code()));
        if let Some(capability) = info.capability {
            assert!(codes.contains(&capability.not_declared_error().jsonrpc_code()));
        }
    }
    let get_task = methods.iter().find(|m| m["name"] == "GetTask").unwrap();
    let params: Vec<(&str, bool)> = get_task["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["required"] == true))
        .collect();
    assert!(params.contains(&("id", true)) && params.contains(&("historyLength", false)));
}

#[test]
fn v0_3_openrpc_has_every_v0_3_method() {
    let openrpc = read("spec/v0_3/generated/openrpc.json");
    let names: BTreeSet<&str> = openrpc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    let v0_3: BTreeSet<&str> = OPERATIONS.iter().filter_map(|i| i.v0_3_method).collect();
    assert_eq!(names, v0_3);
    let send = openrpc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "message/send")
        .unwrap();
    assert_eq!(send["params"][0]["name"], "configuration");
    assert!(
        send["params"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "message" && p["required"] == true)
    );
    let streaming: BTreeSet<&str> = openrpc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["x-a2a-streaming"] == true)
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        streaming,
        BTreeSet::from(["message/stream", "tasks/resubscribe"])
    );
}

// --- One agent's documents, one test per rule of `a2a_protocol::describe`. ---

fn card(json: Value) -> AgentCard {
    serde_json::from_value(json).unwrap()
}

/// A small valid card: one HTTP+JSON and one JSON-RPC interface, `capabilities` as given.
fn minimal(capabilities: Value) -> Value {
    json!({
        "name": "Courier",
        "description": "Delivers parcels.",
        "version": "3.1.0",
        "supportedInterfaces": [
            {"url": "https://courier.example.com/a2a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            {"url": "https://rpc.courier.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": capabilities,
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "track", "name": "Track a parcel", "description": "Where is my parcel?", "tags": ["parcels"]}]
    })
}

fn operation_names(openapi: &Value) -> BTreeSet<String> {
    openapi["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|op| op["x-a2a-operation"].as_str().map(str::to_owned))
        .collect()
}

fn method_names(openrpc: &Value) -> BTreeSet<String> {
    openrpc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn an_agent_without_streaming_or_push_notifications_lacks_those_operations() {
    let agent = card(minimal(json!({})));
    let openapi = describe::openapi(&agent).unwrap();
    let openrpc = describe::openrpc(&agent).unwrap();
    let expected: BTreeSet<String> = OPERATIONS
        .iter()
        .filter(|i| i.capability.is_none())
        .map(|i| i.rpc_name.to_owned())
        .collect();
    assert_eq!(operation_names(&openapi), expected);
    assert_eq!(method_names(&openrpc), expected);
    assert!(openapi["paths"]["/message:stream"].is_null());
    assert!(openapi["paths"]["/tasks/{taskId}/pushNotificationConfigs"].is_null());
    // Declaring streaming brings exactly the streaming operations back.
    let streaming = card(minimal(json!({"streaming": true})));
    let names = operation_names(&describe::openapi(&streaming).unwrap());
    assert!(names.contains("SendStreamingMessage") && names.contains("SubscribeToTask"));
    assert!(!names.contains("GetExtendedAgentCard"));
    let all = card(minimal(
        json!({"streaming": true, "pushNotifications": true, "extendedAgentCard": true}),
    ));
    assert_eq!(
        operation_names(&describe::openapi(&all).unwrap()).len(),
        OPERATIONS.len()
    );
    assert_eq!(
        method_names(&describe::openrpc(&all).unwrap()).len(),
        OPERATIONS.len()
    );
}

#[test]
fn servers_come_from_the_interfaces_of_each_binding_with_the_tenant_in_the_path() {
    let mut json = minimal(json!({}));
    json["supportedInterfaces"]
        .as_array_mut()
        .unwrap()
        .extend([
            json!({"url": "https://courier.example.com/a2a/rest/", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "eu west"}),
            json!({"url": "grpc.courier.example.com:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"}),
            json!({"url": "https://rpc.courier.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "acme"}),
        ]);
    let agent = card(json);
    let openapi = describe::openapi(&agent).unwrap();
    let urls: Vec<&str> = openapi["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        urls,
        [
            "https://courier.example.com/a2a/rest",
            "https://courier.example.com/a2a/rest/eu%20west"
        ]
    );
    // The tenant is in the server URL, so the `{tenant}` paths are gone.
    assert!(
        openapi["paths"]
            .as_object()
            .unwrap()
            .keys()
            .all(|p| !p.contains("{tenant}"))
    );
    // The well-known card is at each interface's origin, and public.
    let card_path = &openapi["paths"][WELL_KNOWN_AGENT_CARD_PATH];
    let origins: Vec<&str> = card_path["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        origins,
        [
            "https://courier.example.com",
            "https://rpc.courier.example.com"
        ]
    );
    assert_eq!(card_path["get"]["security"], json!([]));
    let openrpc = describe::openrpc(&agent).unwrap();
    let servers = openrpc["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 2);
    assert_eq!(servers[1]["url"], "https://rpc.courier.example.com/a2a");
    assert!(servers[1]["summary"].as_str().unwrap().contains("acme"));
}

#[test]
fn an_agent_without_an_interface_of_a_binding_has_no_operation_in_its_document() {
    let mut json = minimal(json!({"streaming": true}));
    json["supportedInterfaces"] = json!([
        {"url": "https://rpc.courier.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ]);
    let openapi = describe::openapi(&card(json.clone())).unwrap();
    assert!(operation_names(&openapi).is_empty());
    assert_eq!(
        openapi["paths"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        [WELL_KNOWN_AGENT_CARD_PATH]
    );
    json["supportedInterfaces"][0]["protocolBinding"] = json!("HTTP+JSON");
    assert!(method_names(&describe::openrpc(&card(json)).unwrap()).is_empty());
}

/// The OpenAPI security scheme the fixture card's scheme `name` becomes.
fn fixture_scheme(name: &str) -> Value {
    let agent: AgentCard = fixture_json("v1/AgentCard.json");
    let openapi = describe::openapi(&agent).unwrap();
    openapi["components"]["securitySchemes"][name].clone()
}

#[test]
fn api_key_schemes_map_to_api_key() {
    assert_eq!(
        fixture_scheme("apiKey"),
        json!({"type": "apiKey", "in": "header", "name": "X-API-Key",
               "description": "Partner API key issued in the Wayfarer partner portal."})
    );
}

#[test]
fn http_schemes_map_to_http_with_the_scheme_in_lower_case() {
    assert_eq!(
        fixture_scheme("bearer"),
        json!({"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
               "description": "Short-lived JWT access token from the Example identity service."})
    );
}

#[test]
fn oauth2_schemes_map_each_flow() {
    let code = fixture_scheme("oauth2");
    assert_eq!(code["type"], "oauth2");
    let flow = &code["flows"]["authorizationCode"];
    assert_eq!(
        flow["authorizationUrl"],
        "https://auth.example.com/oauth2/authorize"
    );
    assert_eq!(flow["tokenUrl"], "https://auth.example.com/oauth2/token");
    assert_eq!(
        flow["scopes"]["bookings:write"],
        "Create, change and cancel bookings on your behalf"
    );
    // What OpenAPI 3.1 has no field for is kept as an extension, not dropped.
    assert_eq!(flow["x-a2a-pkceRequired"], true);
    assert_eq!(
        code["x-a2a-oauth2-metadata-url"],
        "https://auth.example.com/.well-known/oauth-authorization-server"
    );
    let service = fixture_scheme("oauth2-service");
    assert_eq!(
        service["flows"]["clientCredentials"]["scopes"]
            .as_object()
            .unwrap()
            .len(),
        2
    );
    let device = fixture_scheme("oauth2-cli");
    assert_eq!(
        device["flows"]["x-a2a-device-code"]["deviceAuthorizationUrl"],
        "https://auth.example.com/oauth2/device/code"
    );
}

#[test]
fn open_id_connect_schemes_map_to_open_id_connect() {
    let scheme = fixture_scheme("oidc");
    assert_eq!(scheme["type"], "openIdConnect");
    assert_eq!(
        scheme["openIdConnectUrl"],
        "https://login.example.com/.well-known/openid-configuration"
    );
}

#[test]
fn mutual_tls_schemes_map_to_mutual_tls() {
    assert_eq!(fixture_scheme("mtls")["type"], "mutualTLS");
}

#[test]
fn security_requirements_apply_to_every_a2a_operation_and_not_to_the_public_card() {
    let agent: AgentCard = fixture_json("v1/AgentCard.json");
    let openapi = describe::openapi(&agent).unwrap();
    let expected = json!([{"oauth2": ["bookings:read", "profile"]}, {"bearer": []},
                          {"mtls": [], "oauth2-service": ["agents:invoke"]}]);
    for (path, item) in openapi["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if method == "servers" {
                continue;
            }
            let want = if path == WELL_KNOWN_AGENT_CARD_PATH {
                json!([])
            } else {
                expected.clone()
            };
            assert_eq!(operation["security"], want, "{method} {path}");
        }
    }
    let openrpc = describe::openrpc(&agent).unwrap();
    assert_eq!(openrpc["x-a2a-security"], expected);
    assert_eq!(
        openrpc["x-a2a-security-schemes"]["mtls"]["type"],
        "mutualTLS"
    );
}

#[test]
fn skills_are_described_with_tags_examples_and_modes() {
    let agent: AgentCard = fixture_json("v1/AgentCard.json");
    let openapi = describe::openapi(&agent).unwrap();
    let skills = openapi["x-a2a-skills"].as_array().unwrap();
    assert_eq!(skills.len(), agent.skills.len());
    let hotel = skills.iter().find(|s| s["id"] == "hotel-search").unwrap();
    assert_eq!(hotel["tags"], json!(["travel", "hotels"]));
    assert_eq!(hotel["outputModes"], json!(["text/plain", "image/png"]));
    let description = openapi["info"]["description"].as_str().unwrap();
    assert!(description.contains("### Hotel search (`hotel-search`)"));
    assert!(description.contains("Find a hotel near Zürich HB"));
    // Each example becomes a request example of the message operations.
    let examples = &openapi["paths"]["/message:send"]["post"]["requestBody"]["content"]["application/json"]
        ["examples"];
    let example = &examples["hotel-search-1"]["value"];
    assert_eq!(
        example["message"]["parts"][0]["text"],
        "Find a hotel near Zürich HB under 220 CHF per night for 3 nights."
    );
    assert_eq!(
        example["configuration"]["acceptedOutputModes"],
        json!(["text/plain", "image/png"])
    );
    let openrpc = describe::openrpc(&agent).unwrap();
    let send = openrpc["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "SendMessage")
        .unwrap();
    assert!(
        send["examples"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "hotel-search-1")
    );
    // A skill without its own modes takes the card's defaults.
    let minimal = describe::openapi(&card(minimal(json!({})))).unwrap();
    assert_eq!(
        minimal["x-a2a-skills"][0]["inputModes"],
        json!(["text/plain"])
    );
}

#[test]
fn a_bad_card_gives_the_builders_violations_and_no_document() {
    let mut json = minimal(json!({}));
    json["name"] = json!("");
    json["skills"] = json!([
        {"id": "track", "name": "Track", "description": "Track.", "tags": ["t"]},
        {"id": "track", "name": "Track again", "description": "Track.", "tags": ["t"]}
    ]);
    json["securityRequirements"] = json!([{"schemes": {"sso": {"list": []}}}]);
    let agent = card(json);
    let fields: Vec<String> = describe::openapi(&agent)
        .unwrap_err()
        .iter()
        .map(|v| v.field.clone())
        .collect();
    assert_eq!(
        fields,
        [
            "name",
            "skills[1].id",
            "security_requirements[0].schemes[sso]"
        ]
    );
    assert!(describe::openrpc(&agent).is_err());
    assert!(describe::html(&agent).is_err());
}

#[test]
fn the_html_page_is_self_contained_and_shows_every_operation() {
    let agent: AgentCard = fixture_json("v1/AgentCard.json");
    let page = describe::html(&agent).unwrap();
    // Nothing is fetched when the page is viewed: no script, stylesheet, image, frame or font,
    // links only to anchors on the page, and a policy that would block any fetch anyway.
    for forbidden in [
        "<script", "<link", "<img", "<iframe", "@import", "url(", " src=",
    ] {
        assert!(!page.contains(forbidden), "{forbidden}");
    }
    for href in page.split("href=\"").skip(1) {
        assert!(href.starts_with('#'), "{}", &href[..40.min(href.len())]);
    }
    assert!(page.contains("default-src 'none'"));
    let openapi = describe::openapi(&agent).unwrap();
    for path in openapi["paths"].as_object().unwrap().keys() {
        assert!(
            page.contains(&format!("<span class=\"path\">{path}</span>")),
            "{path}"
        );
    }
    // Every link points at an anchor the page has.
    for href in page.split("href=\"#").skip(1) {
        let anchor = href.split('"').next().unwrap();
        assert!(page.contains(&format!("id=\"{anchor}\"")), "{anchor}");
    }
    assert!(page.contains("Wayfarer Travel Agent") && page.contains("Hotel search"));
    // The service parameters are named by their headers in each operation.
    assert!(page.contains("<td><code>A2A-Version</code></td><td>header</td>"));
    // Text from the card is escaped.
    let mut json = minimal(json!({}));
    json["description"] = json!("<script>alert(1)</script>");
    let page = describe::html(&card(json)).unwrap();
    assert!(!page.contains("<script") && page.contains("&lt;script&gt;"));
}

const SDK_SUITE: Suite = Suite {
    name: "OpenAPI and OpenRPC documents",
    package_args: &[],
    sdk_module: "openapi_core",
};

/// The card the SDK's server serves in `sdk_describe.py`: HTTP+JSON at the root, with and without a
/// tenant, JSON-RPC at /rpc, every capability.
fn traffic_card() -> Value {
    json!({
        "name": "Wayfarer", "description": "Plans trips.", "version": "1.0.0",
        "supportedInterfaces": [
            {"url": "http://127.0.0.1", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            {"url": "http://127.0.0.1", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "acme"},
            {"url": "http://127.0.0.1/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": true, "pushNotifications": true, "extendedAgentCard": true},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "plan-trip", "name": "Plan a trip", "description": "Day-by-day itineraries.",
                    "tags": ["travel"], "examples": ["Two days in Lisbon"]}]
    })
}

/// Every document passes openapi-spec-validator or the OpenRPC meta-schema, and every request and
/// response of the official SDK's clients and servers, for every operation, validates against the
/// generated documents and the agent's own (`tests/interop/sdk_describe.py`).
#[test]
fn documents_pass_the_validators_and_the_official_sdks_traffic() {
    let Some(python) = python(&SDK_SUITE) else {
        return;
    };
    let meta = workspace_root().join("tests/interop/openrpc/node_modules/@open-rpc/meta-schema");
    if !meta.exists() {
        let on_ci = std::env::var("CI").is_ok_and(|ci| ci == "true" || ci == "1");
        assert!(
            !on_ci,
            "CI is set but the OpenRPC meta-schema is not installed (.ci/run runs `npm ci` in tests/interop/openrpc)"
        );
        eprintln!(
            "SKIPPED OpenAPI/OpenRPC validation: run `npm ci` in tests/interop/openrpc for the OpenRPC meta-schema"
        );
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("describe_v1");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, value: &Value| -> String {
        let path = dir.join(name);
        std::fs::write(&path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
        path.display().to_string()
    };
    let root = |path: &str| workspace_root().join(path).display().to_string();
    // The generated document as a deployment on 127.0.0.1 would serve it.
    let mut deployed = spec_openapi();
    deployed["servers"] = json!([{"url": "http://127.0.0.1"}]);
    deployed["paths"][WELL_KNOWN_AGENT_CARD_PATH]["servers"] = json!([{"url": "http://127.0.0.1"}]);
    let traffic = card(traffic_card());
    let fixture: AgentCard = fixture_json("v1/AgentCard.json");
    let minimal_card = card(minimal(json!({})));
    let input = json!({
        "openapi": {
            "spec": root("spec/v1/generated/openapi.json"),
            "traffic agent": write("traffic.openapi.json", &describe::openapi(&traffic).unwrap()),
            "fixture agent": write("fixture.openapi.json", &describe::openapi(&fixture).unwrap()),
            "minimal agent": write("minimal.openapi.json", &describe::openapi(&minimal_card).unwrap()),
        },
        "openrpc": {
            "spec": root("spec/v1/generated/openrpc.json"),
            "spec v0.3": root("spec/v0_3/generated/openrpc.json"),
            "traffic agent": write("traffic.openrpc.json", &describe::openrpc(&traffic).unwrap()),
            "fixture agent": write("fixture.openrpc.json", &describe::openrpc(&fixture).unwrap()),
            "minimal agent": write("minimal.openrpc.json", &describe::openrpc(&minimal_card).unwrap()),
        },
        "traffic_openapi": {
            "spec": write("spec-deployed.openapi.json", &deployed),
            "traffic agent": dir.join("traffic.openapi.json").display().to_string(),
        },
        "traffic_openrpc": {
            "spec": root("spec/v1/generated/openrpc.json"),
            "traffic agent": dir.join("traffic.openrpc.json").display().to_string(),
        },
        "card": traffic_card(),
    });
    write("input.json", &input);
    let (ok, stdout) = run_script(&python, "sdk_describe.py", &["check"], &dir);
    assert!(ok, "sdk_describe.py failed:\n{stdout}");
    let report = read(&dir.join("report.json").display().to_string());
    let failures: Vec<&str> = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let checked = &report["checked"];
    assert_eq!(checked["openapi documents valid"], 4, "{checked}");
    assert_eq!(checked["openrpc documents valid"], 5, "{checked}");
    assert_eq!(checked["broken openapi document rejected"], 1);
    assert_eq!(checked["broken openrpc document rejected"], 1);
    assert_eq!(checked["broken openapi document fails the traffic"], 1);
    assert_eq!(checked["broken openrpc document fails the traffic"], 1);
    assert_eq!(
        checked["jsonrpc methods called"],
        OPERATIONS.len(),
        "{checked}"
    );
    // The card, and every operation with and without a tenant (one path per operation and tenant).
    assert!(checked["http paths called"].as_u64().unwrap() > OPERATIONS.len() as u64);
    assert!(checked["http requests valid"].as_u64().unwrap() >= 2 * OPERATIONS.len() as u64);
    assert!(checked["http stream events valid"].as_u64().unwrap() > 0);
    assert!(checked["http responses valid (404)"].as_u64().unwrap() > 0);
    assert!(checked["jsonrpc errors listed"].as_u64().unwrap() > 0);
}
