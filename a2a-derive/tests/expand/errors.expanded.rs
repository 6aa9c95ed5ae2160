pub fn route_planner() -> u8 {
    7
}
::core::compile_error! {
    "`tags()` is empty: the A2A spec requires at least one tag, e.g. `tags(\"maps\")`"
}
::core::compile_error! {
    "`mp4` is not a media type: it has no `/`; expected `type/subtype`, e.g. `text/plain` or `application/json`"
}
::core::compile_error! {
    "unknown key `colour` in #[a2a_skill]: expected one of `id`, `name`, `description`, `tags`, `examples`, `input_modes`, `output_modes`, `security_requirements`, `crate`"
}
::core::compile_error! {
    "skill `route_planner` has no description: add a `///` doc comment to the function or `description = \"...\"` to #[a2a_skill]"
}
#[doc(hidden)]
#[allow(dead_code, non_snake_case)]
pub fn __a2a_skill_route_planner() -> ::a2a_types::__private::AgentSkill {
    ::core::default::Default::default()
}
struct NotAFunction;
::core::compile_error! {
    "#[a2a_skill] goes on a function or a method, not on a struct"
}
