-- Hooks.
local started = false
meeple.on("turn_start", function(seat)
  if started then
    error("no second turn")
  end
  started = true
end)
