use a2a_types::{a2a_skill, skills};

/// Picks the largest.
#[a2a_skill(tags("math"))]
unsafe fn largest<'a, T: PartialOrd, const N: usize>(items: &'a [T; N]) -> Option<&'a T>
where
    T: std::fmt::Debug,
{
    items.iter().fold(None, |best, item| match best {
        Some(best) if best >= item => Some(best),
        _ => Some(item),
    })
}

/// Says hello, at compile time.
#[a2a_skill(tags("greeting"))]
pub(crate) const fn hello() -> &'static str {
    "hello"
}

fn main() {
    assert_eq!(unsafe { largest(&[3, 9, 4]) }, Some(&9));
    const HELLO: &str = hello();
    assert_eq!(HELLO, "hello");
    let skills = skills![largest::<u8, 3>, hello];
    assert_eq!(skills[0].id, "largest");
    assert_eq!(skills[1].id, "hello");
}
