-- Setup: the map for the number of players, and each player founding its base in its range.

test("each seat count plays on its own map", function()
  expect_eq(scenario.new{ seats = 2 }:space_count(), 144)
  expect_eq(scenario.new{ seats = 3 }:space_count(), 187)
  expect_eq(scenario.new{ seats = 4 }:space_count(), 196)
end)

test("each player in turn founds its base on a territory of its range", function()
  local g = scenario.new{ seed = 1 }
  expect_eq(g:seat_to_act(), 1)
  expect_eq(helpers.offered(g, "found_base", "at"),
    { "A00", "A01", "A02", "B00", "B01", "B02", "C00", "C01", "C02" })
  g:act{ action = "found_base", at = "B01" }
  expect_eq(g:seat_to_act(), 2)
  expect_eq(#helpers.offered(g, "found_base", "at"), 9)
  g:act{ action = "found_base", at = "K10" }
  expect_eq(g:piece_space(1), "B01")
  expect_eq(g:owner("B01"), 1)
  expect_eq(g:piece_space(2), "K10")
  expect_eq(g:owner("K10"), 2)
end)

test("the game starts at seat 1's main stage with the starting resources and the base's yield", function()
  local g = scenario.new{ seed = 1 }
  g:act{ action = "found_base", at = "A00" }
  g:act{ action = "found_base", at = "L11" }
  expect_eq(helpers.phase(g), "main")
  expect_eq(g:current_seat(), 1)
  -- Seat 1's first resource stage came before the bases were founded: its base yielded once
  -- the last was founded (1 to 4 food from a plain).
  local food = g:resource(1, "food")
  expect(food >= 41 and food <= 44, "food " .. food)
  expect_eq(g:resource(1, "wood"), 20)
  expect_eq(g:resource(1, "stone"), 10)
  expect_eq(g:resource(1, "metal"), 0)
  expect_eq({ g:resource(2, "food"), g:resource(2, "wood") }, { 40, 20 })
end)

test("moving second on Two Shores is worth 3 food, given at that player's first turn", function()
  for _, first in ipairs({ 1, 2 }) do
    local g = scenario.new{ seed = 1, first = first }
    local second = 3 - first
    g:act{ action = "found_base", at = "A00" }
    g:act{ action = "found_base", at = "L11" }
    expect_eq(g:current_seat(), first)
    local before = g:resource(second, "food")
    expect_eq(before, 40, "no more food before its turn")
    g:pass()
    expect_eq(g:current_seat(), second)
    -- Its own resource stage came between: take off what its plain base yielded (1 to 4).
    local gain = g:resource(second, "food") - before
    expect(gain >= 4 and gain <= 7, "seat " .. second .. " moving second gained " .. gain)
    g:pass()
    expect_eq(g:current_seat(), first)
    local again = g:resource(first, "food")
    g:pass()
    g:pass()
    -- No more in later rounds, for either: each gains only its base's 1 to 4 food.
    expect(g:resource(first, "food") - again <= 4, "later rounds give nothing more")
  end
end)

test("on Four Winds and Three Crowns every seat starts with the same food", function()
  for _, seats in ipairs({ 3, 4 }) do
    local g = scenario.new{ seed = 1, seats = seats }
    for seat = 1, seats do expect_eq(g:resource(seat, "food"), 40, seats .. " seats, seat " .. seat) end
  end
end)

test("a plain base yields 1 to 4 food at each resource stage, every amount in that range", function()
  local seen = {}
  for seed = 1, 60 do
    local g = helpers.game{ seed = seed }
    g:pass()
    g:pass()
    local food = g:resource(1, "food")
    expect(food >= 1 and food <= 4, "food " .. food)
    seen[food] = true
  end
  for amount = 1, 4 do expect(seen[amount], "never yielded " .. amount) end
end)

test("a barren territory yields nothing", function()
  local g = helpers.game()
  g:set_counter("A00", "barren_until", 1000)
  g:pass()
  g:pass()
  expect_eq(g:resource(1, "food"), 0)
end)

test("a territory with a rogue army on it yields nothing", function()
  local g = helpers.game()
  helpers.army(g, nil, "A00", { "soldier" })
  g:pass()
  g:pass()
  expect_eq(g:resource(1, "food"), 0)
end)
