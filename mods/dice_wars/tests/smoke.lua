-- A first check that the scenario API works on a small fixed board.
local line = {
  kind = "graph", terrain = "land",
  spaces = { { id = "a" }, { id = "b" }, { id = "c" } },
  links = { { "a", "b" }, { "b", "c" } },
}

test("a won attack moves all but one die", function()
  local g = scenario.new{ seed = 1, seats = 2, board = line }
  g:set_owner("a", 1); g:set_counter("a", "dice", 4)
  g:set_owner("b", 2); g:set_counter("b", "dice", 2)
  g:set_owner("c", 2); g:set_counter("c", "dice", 1)
  g:set_turn(1)
  g:force_dice{ 6, 6, 6, 6, 1, 1 }
  g:act{ action = "attack", from = "a", to = "b" }
  expect_eq(g:owner("b"), 1)
  expect_eq(g:counter("b", "dice"), 3)
  expect_eq(g:counter("a", "dice"), 1)
end)
