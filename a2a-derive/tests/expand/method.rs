// Methods: the descriptor becomes a hidden associated function of the same impl block.

impl<T: Clone> MapsAgent<T> {
    #[a2a_skill(
        id = "place-lookup",
        name = "Place lookup",
        description = "Finds a place by name.",
        tags("maps", "search"),
        security_requirements(oauth("maps.read"), ("api-key"(), mtls), ()),
    )]
    pub(crate) fn lookup(&self, query: &str) -> Option<T> {
        None
    }

    /// Not a skill: left alone.
    fn helper(&self) {}
}

fn agent_skills() -> Vec<AgentSkill> {
    skills![MapsAgent::<u8>::lookup]
}
