-- Hooks.
function deal()
  local hand = nil
  return hand.size
end
