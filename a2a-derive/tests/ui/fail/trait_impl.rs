// Limitation: the descriptor of a method is an associated function, which a trait impl cannot take.
use a2a_types::a2a_skill;

trait Agent {
    fn plan(&self);
}

struct Maps;

impl Agent for Maps {
    /// Plans routes.
    #[a2a_skill(tags("maps"))]
    fn plan(&self) {}
}

fn main() {}
