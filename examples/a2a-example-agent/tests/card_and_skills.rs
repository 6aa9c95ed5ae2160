//! The example agent's card and skills, without a server: the card lists every binding and
//! capability, the extended card adds booking, and the travel skills are picked by what the message
//! asks.

use std::net::SocketAddr;

use a2a_example_agent::server::skills::{answer, extended_skills, public_skills};
use a2a_example_agent::server::{Config, card::build};
use a2a_types::v1::PartContent;
use a2a_types::validate::Validate;

#[test]
fn the_card_lists_every_binding_and_capability() {
    let http: SocketAddr = "127.0.0.1:8000".parse().unwrap();
    let grpc: SocketAddr = "127.0.0.1:8001".parse().unwrap();
    let card = build(&Config::default(), http, grpc, false);
    card.validate().unwrap();
    let interfaces: Vec<(&str, &str, &str)> = card
        .supported_interfaces
        .iter()
        .map(|i| {
            (
                i.url.as_str(),
                i.protocol_binding.as_str(),
                i.protocol_version.as_str(),
            )
        })
        .collect();
    assert_eq!(
        interfaces,
        [
            ("http://127.0.0.1:8000/jsonrpc", "JSONRPC", "1.0"),
            ("http://127.0.0.1:8000/rest", "HTTP+JSON", "1.0"),
            ("127.0.0.1:8001", "GRPC", "1.0"),
            ("http://127.0.0.1:8000/jsonrpc", "JSONRPC", "0.3"),
            ("http://127.0.0.1:8000/rest", "HTTP+JSON", "0.3"),
            ("127.0.0.1:8001", "GRPC", "0.3"),
        ]
    );
    let capabilities = &card.capabilities;
    assert_eq!(
        (
            capabilities.streaming,
            capabilities.push_notifications,
            capabilities.extended_agent_card
        ),
        (Some(true), Some(true), Some(true))
    );
    assert!(card.security_schemes.contains_key("bearer"));
    assert_eq!(card.security_requirements.len(), 2);
    assert!(build(&Config::default(), http, grpc, true).skills.len() > card.skills.len());
}

#[test]
fn a_long_text_is_repeated_only_in_part() {
    let long = "é".repeat(2_000);
    let (_, parts) = answer(&long);
    let said = parts[0].as_text().expect("a text");
    assert_eq!(
        said,
        format!("Understood: {}... (2000 characters)", "é".repeat(500))
    );
}

#[test]
fn the_skills_are_picked_by_what_the_message_asks() {
    let (skill, parts) = answer("Find a hotel in Lisbon for 3 nights");
    assert_eq!(skill, Some("find_hotels"));
    assert_eq!(
        parts[0].as_text(),
        Some("Understood: Find a hotel in Lisbon for 3 nights")
    );
    let Some(PartContent::Data(data)) = &parts[1].content else {
        panic!("{parts:?}")
    };
    assert_eq!(data["city"], "Lisbon");

    let (skill, parts) = answer("plan my route from Sunnyvale to Mountain View");
    assert_eq!(skill, Some("route-planner"));
    assert_eq!(
        parts[1].as_text(),
        Some("<ol><li>Leave Sunnyvale</li><li>Arrive in Mountain</li></ol>")
    );

    let (skill, parts) = answer("Book Casa do Rio");
    assert_eq!(skill, Some("book_room"));
    assert_eq!(
        parts[1].as_text(),
        Some("Booked Casa do Rio; you will be charged in EUR")
    );

    assert_eq!(answer("hello").0, None);
}

#[test]
fn the_extended_card_adds_booking() {
    let public: Vec<String> = public_skills().into_iter().map(|s| s.id).collect();
    let extended: Vec<String> = extended_skills().into_iter().map(|s| s.id).collect();
    assert_eq!(public, ["find-hotels", "route-planner"]);
    assert_eq!(extended, ["find-hotels", "route-planner", "book-room"]);
}

/// The route is an HTML part: markup a caller writes into the places comes back as text, not as
/// markup (it was echoed as it came).
#[test]
fn the_route_escapes_what_the_caller_wrote() {
    let (_, parts) = answer("route from <img/src=x/onerror=alert(1)> to a&b'\"<script>x");
    let html = parts[1].as_text().unwrap();
    assert!(
        !html.contains("<img") && !html.contains("<script"),
        "{html}"
    );
    assert_eq!(
        html,
        "<ol><li>Leave img/src=x/onerror=alert(1</li><li>Arrive in a&amp;b&#39;&quot;&lt;script&gt;x</li></ol>"
    );
}

/// The public card says how to reach the extended card, never with what: no token in it.
#[test]
fn the_card_does_not_publish_the_token() {
    let config = Config::default();
    let token = config.extended_card_token.clone().expect("a token");
    let address: SocketAddr = "127.0.0.1:8080".parse().unwrap();
    for extended in [false, true] {
        let card = build(&config, address, address, extended);
        let json = serde_json::to_string(&card).unwrap();
        assert!(!json.contains(&token), "{json}");
        assert!(card.security_schemes.contains_key("bearer"));
    }
}
