// On errors: the item unchanged, every error, and a dummy descriptor so that skills! still compiles.

#[a2a_skill(tags(), output_modes("mp4"), colour = "red")]
pub fn route_planner() -> u8 {
    7
}

#[a2a_skill(tags("x"))]
struct NotAFunction;
