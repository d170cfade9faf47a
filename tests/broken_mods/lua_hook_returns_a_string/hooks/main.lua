-- Hooks.
function how_many()
  return "three"
end
