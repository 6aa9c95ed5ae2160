/// Plans routes.
fn route_planner() {}
#[doc(hidden)]
#[allow(dead_code, non_snake_case)]
fn __a2a_skill_route_planner() -> my_a2a::__private::AgentSkill {
    const SKILL: my_a2a::__private::SkillSpec = my_a2a::__private::SkillSpec {
        id: "route-planner",
        name: "Route Planner",
        description: "Plans routes.",
        tags: &["maps"],
        examples: &[],
        input_modes: &[],
        output_modes: &[],
        security_requirements: &[],
    };
    my_a2a::__private::submit_skill!(SKILL);
    SKILL.to_skill()
}
fn agent_skills() -> Vec<my_a2a::v1::AgentSkill> {
    ::std::vec::Vec::<my_a2a::__private::AgentSkill>::from([__a2a_skill_route_planner()])
}
