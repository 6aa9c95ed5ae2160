use a2a_types::a2a_skill;

/// Plans routes.
#[a2a_skill(tag("maps"), colour = "red")]
fn route_planner() {}

fn main() {}
