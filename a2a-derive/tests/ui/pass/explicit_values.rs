use a2a_types::{a2a_skill, skills};

#[a2a_skill(
    id = "weather.forecast",
    name = "Weather forecast",
    description = "Forecasts the weather for a city.",
    tags("weather"),
    input_modes("text/plain", "application/json; charset=utf-8"),
    output_modes("application/vnd.a2a+json"),
    security_requirements(oauth("weather.read"), ("api-key"(), mtls), ()),
)]
fn forecast() {}

fn main() {
    forecast();
    let skill = &skills![forecast][0];
    assert_eq!(skill.id, "weather.forecast");
    assert_eq!(skill.name, "Weather forecast");
    assert_eq!(skill.description, "Forecasts the weather for a city.");
    assert_eq!(skill.input_modes, ["text/plain", "application/json; charset=utf-8"]);
    assert_eq!(skill.security_requirements.len(), 3);
}
