//! The workspace's main job: an agent publishes its skills by annotating the functions that handle
//! them, builds its AgentCard from them, validates it, and prints it as the A2A v1 JSON a client fetches
//! from `/.well-known/agent-card.json`. It then shows what a client gets back for a request that breaks
//! the spec's requirements. (The card an A2A v0.3 client fetches from the same URL is the bridge's,
//! `a2a_compat::bridge::ToV0_3Card`, in the crate `a2a-spec-compat`.)
//!
//! Run it with `cargo run -p a2a-spec-types --example travel_agent`.

use a2a_types::v1::{
    AgentCard, Artifact, HttpAuthSecurityScheme, Message, Part, SecurityScheme, SendMessageRequest,
    Task, TaskState, TaskStatus,
};
use a2a_types::validate::Validate;
use a2a_types::{a2a_skill, skills};

/// Find hotels in a city for given dates.
///
/// Searches partner inventories and ranks rooms by price, rating and distance to the places the
/// traveller named.
#[a2a_skill(
    tags("travel", "hotels", "search"),
    examples("Find a hotel in Lisbon for 3 nights from April 10, under €180 a night"),
    input_modes("text/plain", "application/json"),
    output_modes("application/json", "text/plain")
)]
async fn find_hotels(request: Message) -> Task {
    let answer = Part::data(
        serde_json::json!({"hotels": [{"name": "Casa do Rio", "price_eur": 142.5, "rating": 4.6}]}),
    );
    Task::new(
        "task-7f3a",
        "ctx-lisbon-trip",
        TaskStatus::now(TaskState::Completed),
    )
    .artifact(Artifact::new("shortlist", [answer]).name("Hotel shortlist"))
    .artifact(Artifact::new("request-echo", request.parts))
}

/// Plan a route between two places.
///
/// Handles driving, walking and transit.
#[a2a_skill(
    id = "route-planner",
    tags("maps", "routing"),
    examples("plan my route from Sunnyvale to Mountain View"),
    output_modes("text/html", "video/mp4")
)]
fn plan_route(from: &str, to: &str) -> String {
    format!("<ol><li>Leave {from}</li><li>Arrive in {to}</li></ol>")
}

/// The booking side of the agent, which needs an authenticated caller.
struct Bookings {
    currency: &'static str,
}

impl Bookings {
    /// Book a room the traveller picked from a shortlist.
    #[a2a_skill(
        name = "Book a room",
        tags("travel", "booking"),
        examples("Book the Casa do Rio for April 10 to 13"),
        security_requirements(bearer())
    )]
    fn book_room(&self, hotel: &str) -> String {
        format!("Booked {hotel}; charged in {}", self.currency)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The annotated functions are ordinary functions still.
    let route = plan_route("Sunnyvale", "Mountain View");
    let booking = Bookings { currency: "EUR" }.book_room("Casa do Rio");
    let _task = find_hotels(Message::user("m-0", [Part::text("Lisbon, 3 nights")]));

    let card = AgentCard::builder(
        "Wayfarer",
        "Plans trips and books hotels for travellers.",
        "1.4.0",
    )
    .jsonrpc("https://agents.example.com/a2a")
    .http_json("https://agents.example.com/rest")
    // Most deployed clients still speak A2A v0.3.
    .jsonrpc_v0_3("https://agents.example.com/a2a/v0.3")
    .provider("Wayfarer Travel GmbH", "https://wayfarer.example.com")
    .streaming(true)
    .push_notifications(false)
    .default_input_modes(["text/plain"])
    .default_output_modes(["text/plain", "application/json"])
    .security_scheme(
        "bearer",
        SecurityScheme::HttpAuthSecurityScheme(HttpAuthSecurityScheme {
            scheme: "Bearer".into(),
            bearer_format: Some("JWT".into()),
            ..Default::default()
        }),
    )
    .skills(skills![find_hotels, plan_route, Bookings::book_room])
    .build()
    .map_err(|violations| format!("the card is invalid: {violations}"))?;
    card.validate()?;

    println!("GET /.well-known/agent-card.json (A2A v1):");
    println!("{}", serde_json::to_string_pretty(&card)?);
    println!("\nthe skills still run: {route:?}; {booking:?}");

    // A client sends a message without an id or role, and with an empty part: the server answers with
    // every violation at once, in the JSON-RPC error the spec defines.
    let request: SendMessageRequest = serde_json::from_str(
        r#"{"message": {"parts": [{"text": "Book it"}, {}]}, "futureField": true}"#,
    )?;
    let violations = request
        .validate()
        .expect_err("the request breaks three requirements");
    println!("\na SendMessage request missing required fields gets:");
    println!(
        "{}",
        serde_json::to_string_pretty(&violations.to_jsonrpc_response(serde_json::json!(1)))?
    );
    Ok(())
}
