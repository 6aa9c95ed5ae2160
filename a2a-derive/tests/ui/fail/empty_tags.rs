use a2a_types::a2a_skill;

/// Plans routes.
#[a2a_skill(tags())]
fn route_planner() {}

/// Draws maps.
#[a2a_skill(tags("maps", ""))]
fn custom_map() {}

fn main() {}
