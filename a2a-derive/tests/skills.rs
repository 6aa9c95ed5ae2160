//! Behaviour of `#[a2a_skill]` and `skills!` through the a2a-types re-export: defaults, explicit
//! values, security requirements, methods, generic and async functions, list order, duplicate ids.

use a2a_types::skills::{DuplicateSkillId, check_unique_ids};
use a2a_types::v1::AgentSkill;
use a2a_types::{a2a_skill, skills};

/// Plan a route between two places.
///
/// Handles driving, walking
///    and transit.
#[a2a_skill(
    tags("maps", "routing"),
    examples("plan my route from Sunnyvale to Mountain View"),
    output_modes("application/html", "video/mp4")
)]
async fn route_planner(from: &str, to: &str) -> Result<String, std::fmt::Error> {
    Ok(format!("{from} -> {to}"))
}

#[a2a_skill(
    id = "maps.custom",
    name = "Custom maps",
    description = "Draws a map\nexactly as asked.",
    tags("maps"),
    input_modes("text/plain; charset=utf-8", "application/json"),
    security_requirements(oauth("maps.read", "maps.write"), ("api-key"(), mtls), ())
)]
fn custom_map() -> u32 {
    42
}

/// Sums anything summable.
#[a2a_skill(tags("math"))]
pub fn generic_sum<T, I: IntoIterator<Item = T>>(items: I) -> T
where
    T: std::iter::Sum<T> + Copy,
{
    items.into_iter().sum()
}

mod agent {
    use a2a_types::a2a_skill;

    /// Looks things up.
    #[a2a_skill(tags("search"))]
    pub fn look_up() -> &'static str {
        "found"
    }

    pub struct MapsAgent<T> {
        pub zoom: T,
    }

    impl<T: Copy> MapsAgent<T> {
        /// Zooms in.
        #[a2a_skill(tags("maps"), id = "zoom")]
        pub fn zoom_in(&self) -> T {
            self.zoom
        }

        /// A handler without `self`.
        #[a2a_skill(tags("maps"))]
        pub async fn make_tiles(count: usize) -> Vec<u8> {
            vec![0; count]
        }

        pub fn all_skills() -> Vec<a2a_types::v1::AgentSkill> {
            a2a_types::skills![Self::zoom_in, Self::make_tiles]
        }
    }
}

/// A minimal executor for the async handlers: they never wait.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Waker};
    let mut future = std::pin::pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut context) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("the handlers under test never wait"),
    }
}

#[test]
fn defaults_come_from_the_function() {
    let skill = &skills![route_planner][0];
    assert_eq!(skill.id, "route-planner");
    assert_eq!(skill.name, "Route Planner");
    assert_eq!(
        skill.description,
        "Plan a route between two places.\n\nHandles driving, walking and transit."
    );
    assert_eq!(skill.tags, ["maps", "routing"]);
    assert_eq!(
        skill.examples,
        ["plan my route from Sunnyvale to Mountain View"]
    );
    assert!(skill.input_modes.is_empty());
    assert_eq!(skill.output_modes, ["application/html", "video/mp4"]);
    assert!(skill.security_requirements.is_empty());
}

#[test]
fn explicit_values_and_security() {
    let skill = &skills![custom_map][0];
    assert_eq!(skill.id, "maps.custom");
    assert_eq!(skill.name, "Custom maps");
    assert_eq!(skill.description, "Draws a map\nexactly as asked.");
    assert_eq!(
        skill.input_modes,
        ["text/plain; charset=utf-8", "application/json"]
    );
    let requirements = &skill.security_requirements;
    assert_eq!(requirements.len(), 3);
    assert_eq!(requirements[0].schemes.len(), 1);
    assert_eq!(
        requirements[0].schemes["oauth"].list,
        ["maps.read", "maps.write"]
    );
    assert_eq!(
        requirements[1].schemes.keys().collect::<Vec<_>>(),
        ["api-key", "mtls"]
    );
    assert!(
        requirements[1]
            .schemes
            .values()
            .all(|scopes| scopes.list.is_empty())
    );
    assert!(requirements[2].schemes.is_empty());
}

#[test]
fn functions_stay_callable() {
    assert_eq!(
        block_on(route_planner("Sunnyvale", "Mountain View")),
        Ok("Sunnyvale -> Mountain View".to_string())
    );
    assert_eq!(custom_map(), 42);
    assert_eq!(generic_sum([1, 2, 3]), 6);
    assert_eq!(generic_sum(vec![0.5, 0.25]), 0.75);
    assert_eq!(agent::look_up(), "found");
    assert_eq!(agent::MapsAgent { zoom: 3u8 }.zoom_in(), 3);
    assert_eq!(block_on(agent::MapsAgent::<u8>::make_tiles(2)), [0, 0]);
}

#[test]
fn methods_and_paths() {
    let skills = skills![
        agent::MapsAgent::<u8>::zoom_in,
        agent::MapsAgent<i64>::make_tiles
    ];
    assert_eq!(skills[0].id, "zoom");
    assert_eq!(skills[0].description, "Zooms in.");
    assert_eq!(skills[1].id, "make-tiles");
    assert_eq!(skills[1].name, "Make Tiles");
    assert_eq!(agent::MapsAgent::<()>::all_skills(), skills);
}

#[test]
fn skills_keep_the_order_listed() {
    let ids =
        |skills: Vec<AgentSkill>| skills.into_iter().map(|skill| skill.id).collect::<Vec<_>>();
    assert_eq!(
        ids(skills![
            generic_sum,
            agent::look_up,
            route_planner,
            custom_map,
        ]),
        ["generic-sum", "look-up", "route-planner", "maps.custom"]
    );
    assert_eq!(
        ids(skills![custom_map, generic_sum::<u8, Vec<u8>>]),
        ["maps.custom", "generic-sum"]
    );
    assert!(skills![].is_empty());
}

#[test]
fn renamed_crate() {
    mod renamed {
        pub use a2a_types as my_a2a;
    }
    /// Via a renamed path.
    #[renamed::my_a2a::a2a_skill(crate = "renamed::my_a2a", tags("x"))]
    fn renamed_skill() {}

    let skills = renamed::my_a2a::skills![crate = renamed::my_a2a; renamed_skill];
    assert_eq!(skills[0].id, "renamed-skill");
    renamed_skill();
}

#[test]
fn duplicate_ids_are_an_error_when_the_card_is_built() {
    /// Another skill claiming the route planner's id.
    #[a2a_skill(tags("maps"), id = "route-planner")]
    fn impostor() {}

    let skills = skills![route_planner, custom_map, impostor];
    assert_eq!(
        check_unique_ids(&skills),
        Err(DuplicateSkillId {
            id: "route-planner".into(),
            first: 0,
            second: 2
        })
    );
    assert_eq!(check_unique_ids(&skills[..2]), Ok(()));
    impostor();
}

#[test]
fn skills_serialize_as_the_protocol_says() {
    let json = a2a_types::serde_json::to_value(&skills![custom_map][0]).unwrap();
    assert_eq!(
        json,
        a2a_types::serde_json::json!({
            "id": "maps.custom",
            "name": "Custom maps",
            "description": "Draws a map\nexactly as asked.",
            "tags": ["maps"],
            "inputModes": ["text/plain; charset=utf-8", "application/json"],
            "securityRequirements": [
                {"schemes": {"oauth": {"list": ["maps.read", "maps.write"]}}},
                {"schemes": {"api-key": {}, "mtls": {}}},
                {}
            ]
        })
    );
}
