//! The AgentCard builder produces only valid cards (every problem is returned at once) and the
//! constructors produce the JSON the spec expects.

use a2a_types::v1::{
    AgentCard, AgentSkill, Artifact, HttpAuthSecurityScheme, Message, Part, SecurityScheme, Task,
    TaskState, TaskStatus,
};
use a2a_types::validate::Validate;
// `AgentCard::to_v0_3`, the card an A2A v0.3 client fetches.
use a2a_compat::bridge::ToV0_3Card;
use serde_json::json;

fn skill(id: &str) -> AgentSkill {
    AgentSkill {
        id: id.into(),
        name: format!("Skill {id}"),
        description: "Does a thing travellers need.".into(),
        tags: vec!["travel".into()],
        ..Default::default()
    }
}

fn bearer() -> SecurityScheme {
    SecurityScheme::HttpAuthSecurityScheme(HttpAuthSecurityScheme {
        scheme: "Bearer".into(),
        bearer_format: Some("JWT".into()),
        ..Default::default()
    })
}

#[test]
fn a_complete_card_builds_and_is_valid_json() {
    let card = AgentCard::builder("Wayfarer", "Plans and books trips.", "1.4.0")
        .jsonrpc("https://agents.example.com/a2a")
        .grpc("https://agents.example.com:8443")
        .http_json("https://agents.example.com/rest")
        .provider("Wayfarer Travel GmbH", "https://wayfarer.example.com")
        .streaming(true)
        .push_notifications(false)
        .default_input_modes(["text/plain", "application/json"])
        .default_output_modes(["text/plain"])
        .security_scheme("bearer", bearer())
        .security_requirement([("bearer", Vec::<String>::new())])
        .skills([skill("book-hotel"), skill("plan-route")])
        .documentation_url("https://wayfarer.example.com/docs")
        .build()
        .unwrap();
    assert!(card.validate().is_ok());
    let json = serde_json::to_value(&card).unwrap();
    assert_eq!(
        json["supportedInterfaces"][1],
        json!({"url": "https://agents.example.com:8443", "protocolBinding": "GRPC", "protocolVersion": "1.0"})
    );
    assert_eq!(
        json["capabilities"],
        json!({"streaming": true, "pushNotifications": false})
    );
    assert_eq!(
        json["securityRequirements"],
        json!([{"schemes": {"bearer": {}}}])
    );
    // What the builder wrote reads back unchanged through the protobuf implementation too.
    let proto: a2a_proto::v1::AgentCard = a2a_proto::json::from_str(&json.to_string()).unwrap();
    assert_eq!(serde_json::to_value(&proto).unwrap(), json);
}

#[test]
fn build_reports_every_problem_at_once() {
    let mut no_tags = skill("plan-route");
    no_tags.tags.clear();
    let mut secured = skill("book-hotel");
    secured.security_requirements = vec![a2a_types::v1::SecurityRequirement::new([(
        "oauth",
        ["bookings:write"],
    )])];
    let err = AgentCard::builder("Wayfarer", "", "1.4.0")
        .jsonrpc("https://agents.example.com/a2a")
        .default_input_modes(["text/plain"])
        .security_requirement([("mtls", Vec::<String>::new())])
        .skills([skill("book-hotel"), no_tags, secured])
        .build()
        .unwrap_err();
    let fields: Vec<&str> = err.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "description",
            "default_output_modes",
            "skills[1].tags",
            "skills[2].id",
            "security_requirements[0].schemes[mtls]",
            "skills[2].security_requirements[0].schemes[oauth]",
        ]
    );
    assert!(
        err.to_string()
            .contains("Skill id `book-hotel` is already used by skills[0]."),
        "{err}"
    );
    assert_eq!(
        err.to_jsonrpc_error()["data"][1]["fieldViolations"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
}

#[test]
fn constructors_write_the_expected_protojson() {
    let message = Message::user(
        "m-1",
        [
            Part::text("Two nights in Lisbon"),
            Part::raw(vec![0xff, 0x00], "application/octet-stream").filename("card.bin"),
            Part::url("https://cdn.example.com/itinerary.pdf").media_type("application/pdf"),
            Part::data(json!({"adults": 2, "budget_eur": 180.5})),
        ],
    )
    .context_id("ctx-lisbon");
    assert_eq!(
        serde_json::to_value(&message).unwrap(),
        json!({
            "messageId": "m-1", "contextId": "ctx-lisbon", "role": "ROLE_USER",
            "parts": [
                {"text": "Two nights in Lisbon"},
                {"raw": "/wA=", "filename": "card.bin", "mediaType": "application/octet-stream"},
                {"url": "https://cdn.example.com/itinerary.pdf", "mediaType": "application/pdf"},
                {"data": {"adults": 2, "budget_eur": 180.5}}
            ]
        })
    );
    assert!(message.validate().is_ok());

    let reply = Message::agent("m-2", [Part::text("Booked.")]).task_id("t-1");
    let task = Task::new(
        "t-1",
        "ctx-lisbon",
        TaskStatus::now(TaskState::Completed).message(reply),
    )
    .artifact(
        Artifact::new("a-1", [Part::data(json!({"confirmation": "LX-4471"}))]).name("booking"),
    );
    assert!(task.validate().is_ok());
    let json = serde_json::to_value(&task).unwrap();
    assert_eq!(json["status"]["state"], "TASK_STATE_COMPLETED");
    assert!(json["status"]["timestamp"].as_str().unwrap().ends_with('Z'));
    assert_eq!(json["artifacts"][0]["name"], "booking");
}

/// A card built for v1 with a v0.3 interface renders as a v0.3 card that the v0.3 JSON Schema accepts;
/// without one it has no v0.3 form, and the error says where.
#[test]
fn a_built_card_renders_for_v0_3_clients() {
    let card = AgentCard::builder("Wayfarer", "Plans and books trips.", "1.4.0")
        .jsonrpc("https://agents.example.com/a2a")
        .grpc("https://agents.example.com/grpc")
        .jsonrpc_v0_3("https://agents.example.com/a2a/v0.3")
        .interface("https://agents.example.com/rest/v0.3", "HTTP+JSON", "0.3")
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .extended_agent_card(true)
        .security_scheme("bearer", bearer())
        .skill(skill("find-hotels"))
        .build()
        .unwrap();
    let legacy = serde_json::to_value(card.to_v0_3().unwrap()).unwrap();
    assert_eq!(legacy["url"], "https://agents.example.com/a2a/v0.3");
    assert_eq!(legacy["preferredTransport"], "JSONRPC");
    assert_eq!(legacy["protocolVersion"], "0.3");
    assert_eq!(
        legacy["additionalInterfaces"],
        json!([{"url": "https://agents.example.com/rest/v0.3", "transport": "HTTP+JSON"}])
    );
    assert_eq!(legacy["supportsAuthenticatedExtendedCard"], true);
    assert_eq!(legacy["securitySchemes"]["bearer"]["type"], "http");

    let schema = a2a_tests::schema_values::SchemaValues::v0_3();
    let mut root = schema.root().clone();
    root["$ref"] = "#/definitions/AgentCard".into();
    let validator = jsonschema::draft7::new(&root).unwrap();
    if let Err(error) = validator.validate(&legacy) {
        panic!("the v0.3 card is invalid: {error}: {legacy}");
    }

    let v1_only = AgentCard::builder("Wayfarer", "Plans and books trips.", "1.4.0")
        .jsonrpc("https://agents.example.com/a2a")
        .default_input_modes(["text/plain"])
        .default_output_modes(["text/plain"])
        .skill(skill("find-hotels"))
        .build()
        .unwrap();
    let error = v1_only.to_v0_3().unwrap_err();
    assert_eq!(error.path(), "supportedInterfaces");
    assert!(matches!(
        error.kind(),
        a2a_compat::bridge::BridgeErrorKind::NoCompatibleInterface
    ));
}
