use a2a_types::skills;

fn not_a_skill() {}

fn main() {
    not_a_skill();
    let _ = skills![not_a_skill];
}
