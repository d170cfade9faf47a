-- Hooks.
function ready(seat)
  if seat = 1 then
    return 1
  end
  return 0
end
