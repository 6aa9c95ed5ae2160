//! `#[a2a_skill]`: publish an A2A agent's skills by annotating the functions that handle them.
//!
//! Use this crate through `a2a-types`, which re-exports both macros under its default `derive`
//! feature: `a2a_types::a2a_skill` and `a2a_types::skills!`. The generated code refers to
//! `a2a_types` (see [Renamed dependency](#renamed-dependency)).
//!
//! ```
//! use a2a_types::{a2a_skill, skills};
//! # struct Message; struct Task; struct MyError;
//!
//! /// Plan a route between two places.
//! ///
//! /// Handles driving, walking and transit.
//! #[a2a_skill(
//!     tags("maps", "routing"),
//!     examples("plan my route from Sunnyvale to Mountain View"),
//!     output_modes("application/html", "video/mp4"),
//! )]
//! async fn route_planner(request: Message) -> Result<Task, MyError> {
//!     # let _ = request; Ok(Task)
//! }
//!
//! let skills = skills![route_planner];
//! assert_eq!(skills[0].id, "route-planner");
//! assert_eq!(skills[0].name, "Route Planner");
//! assert_eq!(
//!     skills[0].description,
//!     "Plan a route between two places.\n\nHandles driving, walking and transit."
//! );
//! assert_eq!(skills[0].tags, ["maps", "routing"]);
//! ```
//!
//! # How it works
//!
//! `#[a2a_skill]` leaves the function exactly as written and adds, right after it, a hidden function
//! `__a2a_skill_<name>() -> AgentSkill` with the same visibility (for a method, a hidden associated
//! function in the same `impl` block). [`skills!`] calls those descriptors. Every mistake in the
//! attribute is a compile error at the key or value at fault, all of them reported in one build.
//!
//! The crate is laid out like `serde_derive`: `lib.rs` holds the entry points, `skill/` parses the
//! arguments and the item (`args.rs`, `item.rs`), checks them (`validate.rs`) and writes the
//! descriptor (`emit.rs`); `skills_list.rs` is `skills!`.

mod errors;
mod skill;
mod skills_list;
mod text;

use proc_macro::TokenStream;

/// Declares the annotated function as the handler of an A2A skill, producing an `AgentSkill` entry
/// for the agent card.
///
/// Goes on a free function (sync or async, generic or not, any signature) or on a method in an
/// inherent `impl` block. The function itself is unchanged and callable as before.
///
/// # Keys
///
/// | key | value | default |
/// |---|---|---|
/// | `id = "..."` | the skill's id, unique within the agent | the function's name in kebab-case: `route_planner` → `route-planner` |
/// | `name = "..."` | display name | the function's name in title case: `Route Planner` |
/// | `description = "..."` | what the skill does | the function's doc comment (below); one of the two is required |
/// | `tags("...", ...)` | keywords; **required**, at least one (the A2A spec requires them) | — |
/// | `examples("...", ...)` | sample requests | none |
/// | `input_modes("...", ...)` | media types the skill accepts, overriding the card's defaults | none (the card's) |
/// | `output_modes("...", ...)` | media types the skill produces | none (the card's) |
/// | `security_requirements(...)` | security schemes and scopes needed to call the skill (below) | none |
/// | `crate = "path"` | where `a2a_types` is, when the dependency is renamed | `::a2a_types` |
///
/// Each key may be given once. Media types must be `type/subtype` (RFC 6838 names: letters, digits
/// and `!#$&-^_.+`), optionally followed by `; name=value` parameters: `text/plain; charset=utf-8`.
/// Wildcard ranges such as `image/*` are not accepted.
///
/// ## Description from the doc comment
///
/// Without `description = "..."`, the `///` lines become the description: every line is trimmed,
/// the lines of a paragraph are joined with a space, and paragraphs (separated by blank lines) are
/// joined with a blank line (`"\n\n"`). Only string doc attributes are read; for `#[doc =
/// include_str!(...)]`, or to keep line breaks, give `description` explicitly.
///
/// ## Security requirements
///
/// `security_requirements(...)` lists alternatives, any one of which is enough (each is one
/// `SecurityRequirement` entry). An alternative is a scheme with its scopes, `oauth("read",
/// "write")`, or a scheme without scopes, `api_key` or `api_key()`; a parenthesized group
/// `(oauth("read"), mtls)` is one alternative needing all its schemes together. Scheme names are the
/// keys of the card's `securitySchemes`: an identifier, or a string for other names,
/// `"api-key"()`. An empty group `()` is an alternative that needs no authentication.
///
/// ```
/// # use a2a_types::a2a_skill;
/// /// Reads the user's calendar.
/// #[a2a_skill(
///     tags("calendar"),
///     // OAuth with both scopes, or an API key together with mutual TLS.
///     security_requirements(oauth("calendar.read", "calendar.events"), ("api-key"(), mtls)),
/// )]
/// fn read_calendar() {}
///
/// let skill = &a2a_types::skills![read_calendar][0];
/// assert_eq!(skill.security_requirements.len(), 2);
/// assert_eq!(skill.security_requirements[0].schemes["oauth"].list, ["calendar.read", "calendar.events"]);
/// assert!(skill.security_requirements[1].schemes["api-key"].list.is_empty());
/// ```
///
/// # Methods
///
/// ```
/// use a2a_types::{a2a_skill, skills};
///
/// struct MapsAgent;
///
/// impl MapsAgent {
///     /// Looks up a place.
///     #[a2a_skill(tags("maps"), id = "place-lookup")]
///     pub fn lookup(&self, query: &str) -> String {
///         query.to_uppercase()
///     }
/// }
///
/// assert_eq!(MapsAgent.lookup("lisbon"), "LISBON");
/// assert_eq!(skills![MapsAgent::lookup][0].id, "place-lookup");
/// ```
///
/// The descriptor of a method is a hidden associated function of the `impl` block, so the attribute
/// works in inherent `impl` blocks only: in a trait `impl`, rustc rejects the extra function (`method
/// __a2a_skill_... is not a member of trait`). Handle the skill in an inherent method and call it
/// from the trait method.
///
/// # Collecting skills
///
/// - `skills![a, b, ...]` builds the `Vec<AgentSkill>` of the functions named, in that order. It works
///   everywhere, for free functions and methods alike.
/// - With a2a-types' opt-in `inventory` feature, every annotated function linked into the binary,
///   free function or method, is also collected automatically: `a2a_types::skills::registered()`.
///
/// Duplicate ids are not visible to a macro (the skills may live in different crates); they are an
/// error when the card is built (`a2a_types::skills::check_unique_ids`).
///
/// # Errors
///
/// Each of these is a compile error at the key or value at fault, and all are reported at once: no
/// `tags`, `tags()` empty, an empty tag or example, no description and no doc comment, an empty `id`,
/// `name` or `description`, a media type that is not `type/subtype`, a key given twice, an unknown key
/// (with a suggestion for a likely typo), and the attribute on something that is not a function with a
/// body. The function is still emitted as written, so its own errors show too.
///
/// # Renamed dependency
///
/// The generated code names everything by absolute path through a hidden module of a2a-types,
/// `::a2a_types::__private`. If you renamed the dependency (`my_a2a = { package = "a2a-types", ...
/// }`), say where it is: `#[my_a2a::a2a_skill(crate = "my_a2a", tags("x"))]` (a path such as
/// `crate::reexports::a2a` works too).
#[proc_macro_attribute]
pub fn a2a_skill(args: TokenStream, item: TokenStream) -> TokenStream {
    skill::expand(args.into(), item.into()).into()
}

/// The `AgentSkill`s of the listed [`#[a2a_skill]`](macro@a2a_skill) functions, as a
/// `Vec<AgentSkill>` in the order listed.
///
/// ```
/// use a2a_types::{a2a_skill, skills};
///
/// mod maps {
///     /// Plans a route.
///     #[a2a_types::a2a_skill(tags("maps"))]
///     pub fn route_planner() {}
/// }
///
/// /// Draws a custom map.
/// #[a2a_skill(tags("maps"))]
/// fn custom_map() {}
///
/// let skills = skills![maps::route_planner, custom_map];
/// let ids: Vec<_> = skills.iter().map(|skill| skill.id.as_str()).collect();
/// assert_eq!(ids, ["route-planner", "custom-map"]);
/// ```
///
/// Name each function by a path to where it is defined: `module::function`, `Type::method`,
/// `Self::method`. Each path `p::f` becomes a call of the descriptor `p::__a2a_skill_f()` that
/// `#[a2a_skill]` put beside the function, so:
///
/// - a function brought in with `use module::function;` is not found (the `use` does not bring its
///   descriptor); write `module::function`, or `use module::{function, __a2a_skill_function};`
/// - a function without `#[a2a_skill]` fails with ``cannot find function `__a2a_skill_f` ``;
/// - generic arguments on the function itself (`plan::<u8>`) are ignored: a skill's entry does not
///   depend on them. Those on a type are kept: `Agent::<u8>::lookup`.
///
/// A path listed twice is an error. With a renamed dependency, start with the crate's path:
/// `skills![crate = my_a2a; route_planner, custom_map]` (`crate = "my_a2a";` also works).
#[proc_macro]
pub fn skills(input: TokenStream) -> TokenStream {
    skills_list::expand(input.into()).into()
}
