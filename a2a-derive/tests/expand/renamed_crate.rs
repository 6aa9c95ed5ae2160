// A renamed dependency: `crate = ...` in the attribute and in skills!.

/// Plans routes.
#[my_a2a::a2a_skill(crate = "my_a2a", tags("maps"))]
fn route_planner() {}

fn agent_skills() -> Vec<my_a2a::v1::AgentSkill> {
    my_a2a::skills![crate = my_a2a; route_planner]
}
