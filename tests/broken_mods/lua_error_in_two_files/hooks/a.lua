-- Hooks.
function a(
