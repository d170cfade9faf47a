-- The teams, their units and the arena at the start.

local h = helpers

test("each team starts with 1,000,000 credits and four units in its base, with their figures", function()
  local g = scenario.new{ seed = 1, seats = 4, first = 1 }
  for seat = 1, 4 do expect_eq(g:resource(seat, "credits"), 1000000) end
  expect_eq(g:piece_space(h.RED_WARRIOR), "C00")
  expect_eq(g:piece_space(h.BLUE_GUNNER), "O02")
  expect_eq(g:piece_space(h.GREEN_MEDIC), "P14")
  expect_eq(g:piece_space(16), "B14", "yellow's medic")
  local figures = {}
  for _, unit in ipairs{ h.RED_WARRIOR, h.RED_SCOUT, h.RED_GUNNER, h.RED_MEDIC } do
    figures[#figures + 1] = {
      g:stat(unit, "movement"), g:stat(unit, "skill"), g:stat(unit, "toughness"), g:stat(unit, "vitae"),
    }
  end
  expect_eq(figures, { { 4, 3, 2, 6 }, { 6, 2, 1, 4 }, { 3, 2, 3, 6 }, { 4, 1, 1, 5 } },
    "warrior, scout, gunner, medic: Movement, Skill, Toughness, Vitae")
  expect_eq(g:items(h.RED_GUNNER), { "rifle" }, "each unit starts with its deck's basic weapon")
end)

test("the game opens with the shop, then red plays the first round of the first match", function()
  local g = scenario.new{ seed = 1, seats = 3, first = 1 }
  expect_eq(g:round(), 0, "the shop is before round 1")
  expect_eq(g:current_seat(), 1)
  g:pass()
  g:pass()
  expect_eq(g:current_seat(), 3, "purchase turns go round")
  g:pass()
  expect_eq({ g:round(), g:current_seat() }, { 1, 1 }, "every team passed: red starts the match")
end)

test("a turn draws 3 Special Play cards, plus 1 for every 5 control points held", function()
  local g = h.game{}
  expect_eq(#g:state().seats[1].hand, 3, "red drew 3 at the start of its turn")
  for _, label in ipairs{ "E02", "M02", "C04", "O04", "E08" } do g:set_owner(label, 2) end
  g:pass()
  g:pass()
  expect_eq(#g:state().seats[2].hand, 4, "blue holds 5 control points: 3 + 1")
end)

test("when the shop closes each team chooses where its units stand in its base", function()
  local g = scenario.new{ seed = 1, seats = 2, first = 1 }
  g:pass()
  g:pass()
  expect_eq(g:seat_to_act(), 1, "red places its units first")
  local squares = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "station" then squares[#squares + 1] = record.at end
  end
  table.sort(squares)
  expect_eq(squares, { "A00", "A01", "A02", "B00", "B01", "C00" }, "the warrior's square or a free one")
  g:act{ action = "station", unit = h.RED_WARRIOR, at = "A00", seat = 1 }
  h.stay_put(g)
  expect_eq({ g:piece_space(h.RED_WARRIOR), g:round(), g:current_seat() }, { "A00", 1, 1 })
end)

test("three teams play in the arena of three bases, green's in the middle of the bottom edge", function()
  local g = scenario.new{ seed = 1, seats = 3, first = 1 }
  expect_eq({ g:piece_space(h.RED_WARRIOR), g:piece_space(h.BLUE_GUNNER) }, { "C00", "O02" },
    "red and blue in the top corners, as in the four corners")
  expect_eq({ g:piece_space(h.GREEN_GUNNER), g:piece_space(h.GREEN_MEDIC) }, { "I14", "I15" },
    "green's gunner at the front of its base")
end)

test("four teams play in the four corners, and two teams too", function()
  local four = scenario.new{ seed = 1, seats = 4, first = 1 }
  expect_eq(four:piece_space(h.GREEN_MEDIC), "P14")
  local two = scenario.new{ seed = 1, seats = 2, first = 1 }
  expect_eq(two:space_count(), 289)
  local ok, message = pcall(scenario.new, { seats = 3, options = { arena = "four_corners" } })
  expect_eq(ok, false)
  expect(tostring(message):find("for 2 or 4 seats, not 3: choose `arena=three_bases`", 1, true), tostring(message))
end)
