use a2a_types::{a2a_skill, skills};

#[a2a_skill(
    id = "",
    tags(),
    input_modes("text"),
    colour = "red",
    examples("one", "two"),
    examples("three"),
    security_requirements(oauth("read", 7)),
)]
pub fn route_planner() -> u32 {
    // The function is kept as written, so its own errors show as well.
    "not a number"
}

fn main() {
    // The dummy descriptor keeps this compiling: only the errors above are reported.
    let _ = skills![route_planner];
}
