// The example of the issue: an async handler, its doc comment as the description.

/// Plan a route between two places.
///
/// Handles driving, walking and transit.
#[a2a_skill(tags("maps", "routing"), examples("plan my route from Sunnyvale to Mountain View"),
            output_modes("application/html", "video/mp4"))]
pub async fn route_planner(request: Message) -> Result<Task, MyError> {
    todo!()
}

mod maps {
    /// Draw a custom map.
    #[a2a_types::a2a_skill(tags("maps"), input_modes("text/plain; charset=utf-8"))]
    pub(super) fn custom_map<T: Into<String>>(area: T) -> String {
        area.into()
    }
}

fn agent_skills() -> Vec<AgentSkill> {
    skills![route_planner, maps::custom_map]
}
