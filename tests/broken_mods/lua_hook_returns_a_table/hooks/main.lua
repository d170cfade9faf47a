-- Hooks.
function how_many()
  return { 1, 2 }
end
