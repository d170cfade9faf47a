-- Hooks.
meeple.on("turn_ends", function(seat)
end)
