-- Data keyed by a boolean: no save can hold it as it is, so keeping it is refused at its line
-- rather than kept changed.
function keep()
  local seen = { [true] = "yes", [1] = "one" }
  game.put("seen", seen)
end
