use a2a_types::a2a_skill;

/// Plans routes.
#[a2a_skill(id = "", tags("maps"))]
fn route_planner() {}

fn main() {}
