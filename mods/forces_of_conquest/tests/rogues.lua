-- Rogue armies: nobody's, acting on their own in a player's rogue stage.

local function rogues(g)
  local out = {}
  for _, piece in ipairs(g:state().pieces) do
    if piece.kind == "army" and g:piece_owner(piece.piece) == nil then out[#out + 1] = piece.piece end
  end
  return out
end

test("a rogue army marches in the rogue stage of the player it acts for, onto a player's army it reaches", function()
  local g = helpers.game{ stock = 100 }
  local rogue = helpers.army(g, nil, "D02", { "soldier", "soldier" })
  g:set_stat(rogue, "acts_on", 1)
  local target = helpers.army(g, 1, "D04", { "defender" })
  g:pass()
  -- Seat 1's rogue stage: 4 movement points, and seat 1's army two plains away.
  expect_eq(g:piece_space(rogue), "D04")
  expect_eq(g:stat(target, "battle") > 0 or not g:alive(target), true, "it attacked")
end)

test("a rogue army does not act on another player's turn", function()
  local g = helpers.game()
  local rogue = helpers.army(g, nil, "D02", { "soldier" })
  g:set_stat(rogue, "acts_on", 2)
  g:pass()
  expect_eq(g:piece_space(rogue), "D02")
end)

test("a wild rogue army appears on land nobody owns, while there are fewer than the most", function()
  local g = helpers.game{ wild_chance = 100 }
  g:pass()
  local found = rogues(g)
  expect_eq(#found, 1)
  local army = found[1]
  expect_eq(g:owner(g:piece_space(army)), nil)
  local size = #g:contents(army)
  expect(size >= 1 and size <= 5, "size " .. size)
  expect_eq(g:stat(army, "acts_on"), 1)
end)

test("at the most rogue armies, no wild one appears", function()
  local g = helpers.game{ wild_chance = 100 }
  g:set_var("max_rogues", 1)
  helpers.army(g, nil, "F05", { "soldier" })
  g:pass()
  expect_eq(#rogues(g), 1)
end)

test("an army going rogue at the most destroys one of the rogue armies there are", function()
  local g = helpers.game()
  g:set_var("max_rogues", 1)
  local old = helpers.army(g, nil, "F05", { "soldier" })
  -- Two defenders unfed: 50%; the forced 1 makes it go rogue, and the one rogue (1 of 1) goes.
  local army = helpers.army(g, 1, "E04", { "defender", "defender" })
  g:set_counter("A00", "barren_until", 1000)
  g:set_resource(1, "food", 2)
  g:force_random{ 1, 1 }
  g:pass()
  g:pass()
  expect_eq(g:piece_owner(army), nil)
  expect_eq(g:alive(old), false)
  expect_eq(#rogues(g), 1)
end)
