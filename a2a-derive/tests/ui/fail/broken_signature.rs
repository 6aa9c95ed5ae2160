// A malformed parameter list is left to rustc: the macro reads only up to the function's name.
use a2a_types::a2a_skill;

/// Plans a route.
#[a2a_skill(tags("travel"))]
fn plan_route(from: ) -> String {
    String::new()
}

fn main() {}
