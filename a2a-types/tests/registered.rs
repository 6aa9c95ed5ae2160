//! The automatic collection of `#[a2a_skill]` functions (`inventory` feature): free functions,
//! methods (also in generic impl blocks) and functions nested in modules all register, sorted by id.
#![cfg(feature = "inventory")]

use a2a_types::a2a_skill;
use a2a_types::skills::{check_unique_ids, registered};

/// Plans routes.
#[a2a_skill(tags("maps"))]
async fn route_planner() {}

mod nested {
    /// Finds places.
    #[a2a_types::a2a_skill(tags("search"), id = "a-first-by-id")]
    pub(crate) fn find() {}
}

struct Agent<T>(T);

impl<T> Agent<T> {
    /// Zooms.
    #[a2a_skill(tags("maps"))]
    fn zoom(&self) -> &T {
        &self.0
    }
}

#[test]
fn every_annotated_function_is_registered_sorted_by_id() {
    let skills = registered();
    let ids: Vec<&str> = skills.iter().map(|skill| skill.id.as_str()).collect();
    assert_eq!(ids, ["a-first-by-id", "route-planner", "zoom"]);
    assert_eq!(skills[0].description, "Finds places.");
    assert_eq!(skills[0].tags, ["search"]);
    assert_eq!(check_unique_ids(&skills), Ok(()));
    // Registration does not stand in the way of calling the functions.
    nested::find();
    assert_eq!(*Agent(3).zoom(), 3);
    drop(route_planner());
}
