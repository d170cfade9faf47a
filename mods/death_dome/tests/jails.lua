-- Jails and release points: nothing acts from or on a jail; an action on a release point sends
-- every unit in the jail two squares away back to its team's base, where it may act at once
-- if a unit phase remains. A team with every unit jailed sits the match out.

local h = helpers

test("releasing a jail sends every unit in it to its team's base", function()
  local g = h.game{ at = {
    [h.RED_WARRIOR] = "C08", [h.RED_SCOUT] = "A08", [h.BLUE_SCOUT] = "A08", [h.RED_GUNNER] = "Q08",
  } }
  expect_eq(h.targets(g, h.RED_WARRIOR), {}, "nothing is attacked in a jail")
  g:act{ action = "release", who = h.RED_WARRIOR }
  local red, blue = g:piece_space(h.RED_SCOUT), g:piece_space(h.BLUE_SCOUT)
  expect(red:match("^[ABC]0[012]$"), "red's scout is in red's base: " .. red)
  expect(blue:match("^[OPQ]0[012]$"), "blue's scout is in blue's base: " .. blue)
  -- Each team chooses where its released unit stands: red first (the release's order), then blue.
  expect_eq(g:seat_to_act(), 1)
  h.refused(g, { action = "station", unit = h.RED_SCOUT, at = "B02", seat = 1 }, "`at` does not satisfy")
  g:act{ action = "station", unit = h.RED_SCOUT, at = "A01", seat = 1 }
  g:act{ action = "station", unit = h.BLUE_SCOUT, at = "Q02", seat = 2 }
  expect_eq({ g:piece_space(h.RED_SCOUT), g:piece_space(h.BLUE_SCOUT) }, { "A01", "Q02" })
  expect_eq(g:piece_space(h.RED_GUNNER), "Q08", "the other jail is not released")
  -- The second unit phase remains: the released scout may take it at once.
  g:pass()
  g:act{ action = "move", who = h.RED_SCOUT, to = "E04" }
  expect_eq(g:piece_space(h.RED_SCOUT), "E04")
end)

test("a jailed unit neither moves nor acts", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "A08", [h.BLUE_WARRIOR] = "B08" } }
  h.refused(g, { action = "move", who = h.RED_WARRIOR, to = "B07" })
  expect_eq(h.targets(g, h.RED_WARRIOR), {})
end)

test("a team whose units are all jailed sits out its turns", function()
  local g = h.game{}
  for _, unit in ipairs{ h.BLUE_WARRIOR, h.BLUE_SCOUT, h.BLUE_GUNNER, h.BLUE_MEDIC } do g:move_piece(unit, "Q08") end
  g:pass()
  g:pass()
  expect_eq({ g:current_seat(), g:round() }, { 1, 2 }, "blue had nothing to do: red's turn again")
end)

test("a released unit comes back whole", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "C08", [h.RED_SCOUT] = "A08" } }
  g:set_stat(h.RED_SCOUT, "vitae", 0)
  g:act{ action = "release", who = h.RED_WARRIOR }
  expect_eq(g:stat(h.RED_SCOUT, "vitae"), 4)
end)
