use a2a_types::v1::{Message, Task};
use a2a_types::{a2a_skill, skills};

#[derive(Debug)]
pub struct MyError;

/// Plan a route between two places.
///
/// Handles driving, walking and transit.
#[a2a_skill(tags("maps", "routing"), examples("plan my route from Sunnyvale to Mountain View"),
            output_modes("application/html", "video/mp4"))]
pub async fn route_planner(request: Message) -> Result<Task, MyError> {
    Ok(Task {
        context_id: request.context_id,
        ..Task::default()
    })
}

fn main() {
    let _future = route_planner(Message::default());
    let skill = &skills![route_planner][0];
    assert_eq!(skill.id, "route-planner");
    assert_eq!(skill.output_modes, ["application/html", "video/mp4"]);
}
