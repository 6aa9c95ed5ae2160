use a2a_types::a2a_skill;

/// Plans routes.
#[a2a_skill(
    tags("maps"),
    input_modes("text", "text/plain", "image/*"),
    output_modes("video/mp4", "application/json charset=utf-8", "text/plain;")
)]
fn route_planner() {}

fn main() {}
