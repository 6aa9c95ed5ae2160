use a2a_types::a2a_skill;

/// Plans routes.
#[a2a_skill(tags("maps"), id = "planner", tags("routing"), id = "route")]
fn route_planner() {}

fn main() {}
