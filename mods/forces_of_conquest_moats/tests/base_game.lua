-- The variant adds its actions to the base game's main stage and lays some of its rules over
-- the base game's: the rest of Forces of Conquest must play as before.

test("the main stage offers the base game's actions and the variant's", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F03", 1)
  g:set_owner("D01", 1)
  g:set_counter("D01", "barren_until", g:turn() + 6)
  g:place_between("wooden_wall", 1, "F03", "G03")
  g:place_between("wooden_wall", 1, "D01", "D02")
  local actions = {}
  for _, record in ipairs(g:legal()) do actions[record.action] = true end
  for _, action in ipairs({ "train_soldier", "train_ranger", "train_defender", "build_wooden_wall", "build_stone_wall",
    "build_wood_tower", "build_stone_tower", "build_bridge", "upgrade", "dig_moat", "build_drawbridge", "pass" }) do
    expect(actions[action], action .. " is offered")
  end
end)

test("armies get their movement points back at the upkeep stage, and units are fed", function()
  local g = helpers.game{ stock = 10 }
  local army = helpers.army(g, 1, "D03", { "soldier", "ranger" }, 0)
  g:pass()
  g:pass()
  expect_eq(g:stat(army, "mp_left"), 5, "the soldier's 4 and 1 for the ranger")
  expect_eq(g:stat(army, "starved"), 0)
end)

test("an army on an enemy flag with nobody to defend it takes it, and wins", function()
  local g = helpers.game()
  local army = helpers.army(g, 1, "K11", { "soldier" }, 4)
  g:act{ action = "move", army = army, to = "L11" }
  expect_eq(g:seat_status(2), "eliminated")
  expect_eq(g:outcome(), { result = "win", seats = { 1 } })
end)
