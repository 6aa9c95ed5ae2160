use a2a_types::a2a_skill;

/// Plans routes.
#[a2a_skill(examples("from here to there"))]
fn route_planner() {}

fn main() {}
