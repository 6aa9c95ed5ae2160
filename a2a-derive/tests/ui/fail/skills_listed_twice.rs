use a2a_types::{a2a_skill, skills};

/// Plans routes.
#[a2a_skill(tags("maps"))]
fn route_planner() {}

fn main() {
    let _ = skills![route_planner, route_planner];
}
