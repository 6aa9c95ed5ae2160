impl<T: Clone> MapsAgent<T> {
    pub(crate) fn lookup(&self, query: &str) -> Option<T> {
        None
    }
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case)]
    pub(crate) fn __a2a_skill_lookup() -> ::a2a_types::__private::AgentSkill {
        const SKILL: ::a2a_types::__private::SkillSpec = ::a2a_types::__private::SkillSpec {
            id: "place-lookup",
            name: "Place lookup",
            description: "Finds a place by name.",
            tags: &["maps", "search"],
            examples: &[],
            input_modes: &[],
            output_modes: &[],
            security_requirements: &[
                &[("oauth", &["maps.read"])],
                &[("api-key", &[]), ("mtls", &[])],
                &[],
            ],
        };
        ::a2a_types::__private::submit_skill!(SKILL);
        SKILL.to_skill()
    }
    /// Not a skill: left alone.
    fn helper(&self) {}
}
fn agent_skills() -> Vec<AgentSkill> {
    ::std::vec::Vec::<
        ::a2a_types::__private::AgentSkill,
    >::from([MapsAgent::<u8>::__a2a_skill_lookup()])
}
