//! `a2a-example-agent`: serves the example agent (`--listen 127.0.0.1:PORT`).

fn main() {
    eprintln!("a2a-example-agent: not built yet");
    std::process::exit(2);
}
