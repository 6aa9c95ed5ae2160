use a2a_types::{a2a_skill, skills};

/// Converts a temperature.
#[a2a_skill(tags("units"))]
fn convert_temperature(celsius: f64) -> f64 {
    celsius * 9.0 / 5.0 + 32.0
}

fn main() {
    assert_eq!(convert_temperature(100.0), 212.0);
    let skills = skills![convert_temperature];
    assert_eq!(skills[0].id, "convert-temperature");
    assert_eq!(skills[0].name, "Convert Temperature");
    assert_eq!(skills[0].description, "Converts a temperature.");
}
