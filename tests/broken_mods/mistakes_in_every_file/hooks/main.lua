-- Hooks.
function f(
