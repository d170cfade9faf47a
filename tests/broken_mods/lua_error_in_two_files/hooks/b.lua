-- Hooks.
error("b refuses to load")
