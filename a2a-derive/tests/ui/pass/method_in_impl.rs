use a2a_types::{a2a_skill, skills};

pub struct Agent<T> {
    greeting: T,
}

impl<T: Clone> Agent<T> {
    /// Greets the user.
    #[a2a_skill(tags("greeting"))]
    pub fn greet(&self) -> T {
        self.greeting.clone()
    }

    /// Makes an agent.
    #[a2a_skill(tags("setup"))]
    pub async fn spawn(greeting: T) -> Self {
        Agent { greeting }
    }

    fn skills() -> Vec<a2a_types::v1::AgentSkill> {
        skills![Self::greet, Self::spawn]
    }
}

mod inner {
    pub struct Helper;

    impl Helper {
        /// Helps.
        #[a2a_types::a2a_skill(tags("help"))]
        pub(crate) fn help(self) {}
    }
}

fn main() {
    assert_eq!(Agent { greeting: "hi" }.greet(), "hi");
    inner::Helper.help();
    let _future = Agent::spawn(1);
    let ids: Vec<String> = Agent::<u8>::skills().into_iter().map(|skill| skill.id).collect();
    assert_eq!(ids, ["greet", "spawn"]);
    assert_eq!(skills![inner::Helper::help][0].name, "Help");
}
