/// Plan a route between two places.
///
/// Handles driving, walking and transit.
pub async fn route_planner(request: Message) -> Result<Task, MyError> {
    todo!()
}
#[doc(hidden)]
#[allow(dead_code, non_snake_case)]
pub fn __a2a_skill_route_planner() -> ::a2a_types::__private::AgentSkill {
    const SKILL: ::a2a_types::__private::SkillSpec = ::a2a_types::__private::SkillSpec {
        id: "route-planner",
        name: "Route Planner",
        description: "Plan a route between two places.\n\nHandles driving, walking and transit.",
        tags: &["maps", "routing"],
        examples: &["plan my route from Sunnyvale to Mountain View"],
        input_modes: &[],
        output_modes: &["application/html", "video/mp4"],
        security_requirements: &[],
    };
    ::a2a_types::__private::submit_skill!(SKILL);
    SKILL.to_skill()
}
mod maps {
    /// Draw a custom map.
    pub(super) fn custom_map<T: Into<String>>(area: T) -> String {
        area.into()
    }
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case)]
    pub(super) fn __a2a_skill_custom_map() -> ::a2a_types::__private::AgentSkill {
        const SKILL: ::a2a_types::__private::SkillSpec = ::a2a_types::__private::SkillSpec {
            id: "custom-map",
            name: "Custom Map",
            description: "Draw a custom map.",
            tags: &["maps"],
            examples: &[],
            input_modes: &["text/plain; charset=utf-8"],
            output_modes: &[],
            security_requirements: &[],
        };
        ::a2a_types::__private::submit_skill!(SKILL);
        SKILL.to_skill()
    }
}
fn agent_skills() -> Vec<AgentSkill> {
    ::std::vec::Vec::<
        ::a2a_types::__private::AgentSkill,
    >::from([__a2a_skill_route_planner(), maps::__a2a_skill_custom_map()])
}
