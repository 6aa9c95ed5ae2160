// The dependency under another name: `crate = ...` tells the generated code where it is.
extern crate a2a_types as my_a2a;

/// Plans routes.
#[my_a2a::a2a_skill(crate = "my_a2a", tags("maps"))]
fn route_planner() {}

mod reexports {
    pub(crate) use my_a2a as a2a;
}

/// Draws maps.
#[reexports::a2a::a2a_skill(crate = "crate::reexports::a2a", tags("maps"))]
fn custom_map() {}

fn main() {
    route_planner();
    custom_map();
    let skills = my_a2a::skills![crate = my_a2a; route_planner, custom_map];
    assert_eq!(skills[1].id, "custom-map");
    let skills = my_a2a::skills![crate = "crate::reexports::a2a"; custom_map];
    assert_eq!(skills[0].id, "custom-map");
}
