//! The meeple command.
fn main() {}
