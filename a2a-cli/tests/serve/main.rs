//! End-to-end tests of `a2a serve`: the real binary serving on loopback ports, called on every
//! binding. `--exec` with a small script, its output checked chunk by chunk as it streams; `--proxy`
//! in front of the official Python SDK 0.3's server, driven by the Python SDK 1.3's v1 client; and
//! `--echo`, with the store chosen by `--store`.

mod echo;
mod exec;
mod proxy;
mod serving;
