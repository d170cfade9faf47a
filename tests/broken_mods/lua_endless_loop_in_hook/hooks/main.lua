-- Hooks.
function forever()
  while true do end
end
