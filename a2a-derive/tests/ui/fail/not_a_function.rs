use a2a_types::a2a_skill;

/// A struct.
#[a2a_skill(tags("maps"))]
struct RoutePlanner;

struct Agent;

/// An impl block.
#[a2a_skill(tags("maps"))]
impl Agent {
    fn plan(&self) {}
}

trait Planner {
    /// A method without a body.
    #[a2a_skill(tags("maps"))]
    fn plan(&self);
}

fn main() {}
