//! The agent's travel skills: each is an ordinary function whose `#[a2a_skill]` puts it on the card.
//! A message no `messageId` prefix claims (`a2a_testkit::behaviour`) is answered by [`answer`], which
//! picks the skill from the words of the message.

use a2a_protocol::describe::escape_html;
use a2a_types::v1::{AgentSkill, Part};
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
pub fn find_hotels(request: &str) -> Part {
    let city = word_after(request, "in").unwrap_or("the city you named");
    Part::data(serde_json::json!({
        "city": city,
        "hotels": [{"name": "Casa do Rio", "price_eur": 142.5, "rating": 4.6}],
    }))
}

/// Plan a route between two places.
///
/// Handles driving, walking and transit.
#[a2a_skill(
    id = "route-planner",
    tags("maps", "routing"),
    examples("plan my route from Sunnyvale to Mountain View"),
    output_modes("text/html", "text/plain")
)]
pub fn plan_route(from: &str, to: &str) -> String {
    // The route is an HTML part: what a caller writes must not become markup in it.
    let (from, to) = (escape_html(from), escape_html(to));
    format!("<ol><li>Leave {from}</li><li>Arrive in {to}</li></ol>")
}

/// Book a room the traveller picked from a shortlist.
///
/// Only on the extended card: booking needs an authenticated caller, with an OpenID Connect token
/// granting `travel.book` when the agent is protected by OpenID Connect. The server enforces this on
/// messages naming the skill (`"metadata": {"skillId": "book-room"}`).
#[a2a_skill(
    name = "Book a room",
    tags("travel", "booking"),
    examples("Book the Casa do Rio for April 10 to 13"),
    security_requirements(oidc("travel.book"), bearer())
)]
pub fn book_room(hotel: &str) -> String {
    format!("Booked {hotel}; you will be charged in EUR")
}

/// The skills every caller sees.
pub fn public_skills() -> Vec<AgentSkill> {
    skills![find_hotels, plan_route]
}

/// The skills of the extended card (authenticated callers).
pub fn extended_skills() -> Vec<AgentSkill> {
    skills![find_hotels, plan_route, book_room]
}

/// The most characters of the caller's text an answer repeats: an agent repeating all of it would
/// keep every text twice (in the task's history and in its artifact).
const REPEATED_CHARS: usize = 500;

/// "Understood: ...": the caller's text, cut after [`REPEATED_CHARS`] characters (saying how long
/// it was).
fn understood(text: &str) -> Part {
    let text = text.trim();
    match first_chars(text, REPEATED_CHARS) {
        Some(head) => Part::text(format!(
            "Understood: {head}... ({} characters)",
            text.chars().count()
        )),
        None => Part::text(format!("Understood: {text}")),
    }
}

/// `text`'s first `count` characters, when it has more than that (`None`: it is all of them).
fn first_chars(text: &str, count: usize) -> Option<&str> {
    text.char_indices().nth(count).map(|(cut, _)| &text[..cut])
}

/// The most characters of a message the skills read for what is asked: a request is said in its
/// first words, and a caller's megabytes of text are not scanned again and again for them.
const READ_CHARS: usize = 4096;

/// What the travel skills make of a message: the skill that answered (if any) and the parts of the
/// answer. The first part always says, in words, what the agent understood. Only the first
/// 4,096 characters (`READ_CHARS`) choose the skill.
pub fn answer(text: &str) -> (Option<&'static str>, Vec<Part>) {
    let understood = understood(text);
    let text = first_chars(text, READ_CHARS).unwrap_or(text);
    let lower = text.to_lowercase();
    if lower.contains("hotel") {
        return (Some("find_hotels"), vec![understood, find_hotels(text)]);
    }
    if let (Some(from), Some(to)) = (word_after(text, "from"), word_after(text, "to")) {
        return (
            Some("route-planner"),
            vec![
                understood,
                Part::text(plan_route(from, to)).media_type("text/html"),
            ],
        );
    }
    if let Some(hotel) = lower.strip_prefix("book ") {
        let hotel = &text.trim()[text.trim().len() - hotel.trim().len()..];
        return (
            Some("book_room"),
            vec![understood, Part::text(book_room(hotel))],
        );
    }
    (None, vec![understood])
}

/// The word that follows `marker` in `text` (`"from Lisbon to Porto"`, `"to"` → `"Porto"`).
fn word_after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    let mut words = text.split_whitespace();
    while let Some(word) = words.next() {
        if word.eq_ignore_ascii_case(marker) {
            return words
                .next()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_characters_choose_the_skill_and_the_whole_text_is_counted() {
        let padding = "é".repeat(READ_CHARS);
        let (skill, parts) = answer(&format!("a hotel in Porto {padding}"));
        assert_eq!(skill, Some("find_hotels"));
        assert!(
            parts[0]
                .as_text()
                .unwrap()
                .contains(&format!("({} characters)", READ_CHARS + 17))
        );

        let (skill, parts) = answer(&format!("{padding} a hotel in Porto"));
        assert_eq!(skill, None, "a keyword past the characters read");
        assert!(
            parts[0]
                .as_text()
                .unwrap()
                .contains(&format!("({} characters)", READ_CHARS + 17))
        );
        // A cut inside a multi-byte character would have panicked: the cut falls on a boundary.
        assert_eq!(answer(&"ü".repeat(READ_CHARS + 1)).0, None);
    }
}
