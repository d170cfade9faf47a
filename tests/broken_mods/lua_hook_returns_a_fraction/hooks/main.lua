-- Hooks.
function how_many()
  return 3.5
end
