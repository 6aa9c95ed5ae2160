use a2a_types::a2a_skill;

#[a2a_skill(tags("maps"))]
fn route_planner() {}

fn main() {}
