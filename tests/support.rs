//! Shared helpers for the bundled-mod tests.
